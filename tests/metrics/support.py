"""Reading /metrics as Prometheus does (prometheus_client's parser): each sample by name and labels."""

from prometheus_client.parser import text_string_to_metric_families


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(scraped: dict, name: str, **labels) -> float:
    """The sample's value; 0 for a counter or histogram sample not yet written."""
    return scraped.get((name, frozenset(labels.items())), 0.0)


def present(scraped: dict, name: str) -> bool:
    return any(sample_name == name for sample_name, _labels in scraped)

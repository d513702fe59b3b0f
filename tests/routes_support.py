"""The portal's pages as the URL conf routes them, for tests that walk every page or list."""

from django.urls import URLPattern, URLResolver, get_resolver


def routes(patterns=None, namespace=None):
    """(url name, pattern) of every route outside the admin and the API."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace not in ("admin", "api"):
                yield from routes(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield (f"{namespace}:{pattern.name}" if namespace else pattern.name), pattern


def view_class_of(pattern: URLPattern):
    """The class of a class-based view's route; None for a function view."""
    return getattr(pattern.callback, "view_class", None)

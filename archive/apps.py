from django.apps import AppConfig


class ArchiveConfig(AppConfig):
    name = "archive"
    verbose_name = "Archive of round history"

    def ready(self):
        # rounds imports no archive (apps depend downwards): the archive registers itself where the
        # round page, the API and the play record look for a round that is not in the database.
        from rounds.recall import round_archives

        from .recall import ARCHIVE

        if ARCHIVE not in round_archives:
            round_archives.append(ARCHIVE)
        # ... and where the ledger's verify reads the rows of the months that left the database.
        from ledger.chains import archived_sources

        from .ledger_sources import archived_ledger_sources

        if archived_ledger_sources not in archived_sources:
            archived_sources.append(archived_ledger_sources)

from django.apps import AppConfig


class RoundsConfig(AppConfig):
    name = "rounds"
    verbose_name = "Rounds"

    def ready(self):
        # Tables may not import rounds (apps depend downwards), so rounds registers its guard there:
        # a table does not open while an incident on it is open.
        from tables.services import status_guards

        from .services import incident_status_guard

        if incident_status_guard not in status_guards:
            status_guards.append(incident_status_guard)
        # ... and the tables pages show each table's open incident beside its status.
        from tables.selectors import table_alert_sources

        from .table_incidents import OPEN_INCIDENTS

        if OPEN_INCIDENTS not in table_alert_sources:
            table_alert_sources.append(OPEN_INCIDENTS)
        # ... and the table page links the table's rounds today and its incidents.
        from tables.selectors import table_panels

        from .table_panels import ROUNDS_TODAY

        if ROUNDS_TODAY not in table_panels:
            table_panels.append(ROUNDS_TODAY)
        # ... and the table page and the tables API say who deals as the table's latest round says.
        from tables.selectors import dealer_sources

        from .table_dealer import LATEST_ROUND_DEALER

        if LATEST_ROUND_DEALER not in dealer_sources:
            dealer_sources.append(LATEST_ROUND_DEALER)
        # ... and the player page (limits) shows the player's limit breaches.
        from limits.player_panels import player_panels

        from .player_panels import PLAYER_BREACHES

        if PLAYER_BREACHES not in player_panels:
            player_panels.append(PLAYER_BREACHES)
        # ... and the ledger keeps a hash chain of each kind of money movement.
        from ledger.chains import register

        from .ledger_chains import CHAINS

        for chain in CHAINS:
            register(chain)

"""Record the one correction of every round corrected before RoundCorrection existed.

An approved re-settlement or the refunds of an incident each become the round's correction. A round
that received both (possible before this change) keeps the earlier as its correction, and is printed
so that compliance can look at it; nothing is deleted.
"""

from django.db import migrations
from django.db.models import Min


def record_corrections(apps, schema_editor):
    RoundCorrection = apps.get_model("rounds", "RoundCorrection")
    Resettlement = apps.get_model("rounds", "Resettlement")
    Refund = apps.get_model("rounds", "Refund")
    found = {}
    for resettlement in Resettlement.objects.filter(status="approved").order_by("decided_at", "pk"):
        found[resettlement.round_id] = (
            resettlement.decided_at,
            RoundCorrection(
                round_id=resettlement.round_id,
                kind="resettled",
                resettlement=resettlement,
                recorded_by_id=resettlement.decided_by_id,
            ),
        )
    refunded = Refund.objects.values("bet__round_id", "incident_id").annotate(at=Min("created_at"))
    for row in refunded.order_by("at"):
        round_pk = row["bet__round_id"]
        earlier = found.get(round_pk)
        if earlier is not None:
            print(
                f"\n  Round pk {round_pk} was both re-settled and refunded: the earlier is kept as its correction."
            )
            if earlier[0] is not None and earlier[0] <= row["at"]:
                continue
        found[round_pk] = (
            row["at"],
            RoundCorrection(round_id=round_pk, kind="cancelled", incident_id=row["incident_id"]),
        )
    RoundCorrection.objects.bulk_create([correction for _, correction in found.values()], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("rounds", "0010_corrections_voids")]

    operations = [migrations.RunPython(record_corrections, migrations.RunPython.noop)]

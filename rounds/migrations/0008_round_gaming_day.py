"""Each round's gaming day in a column of its own, written at ingest; here for the rounds stored before.

The rule is copied as it stood when this migration was written (core.gaming_day may change later;
a migration must not import it), with the zone and cut-off of the settings it runs under. The
rounds are filled one gaming day at a time: one UPDATE per day, over the opened_at index.
"""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, Min


def cutoff_on(day: date, time_zone: str, cutoff: time) -> datetime:
    """The first moment (UTC) at which the clocks of `time_zone` show `cutoff` or later on `day`:
    the first time when they show it twice, the jump when they skip it."""
    zone = ZoneInfo(time_zone)
    wanted = datetime.combine(day, cutoff)
    first = wanted.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == wanted:
        return first
    low, high = int(wanted.replace(tzinfo=zone, fold=1).timestamp()), int(first.timestamp())
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).replace(tzinfo=None) >= wanted:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, UTC)


def day_of(moment: datetime, time_zone: str, cutoff: time) -> date:
    day = moment.astimezone(ZoneInfo(time_zone)).date()
    return day if moment >= cutoff_on(day, time_zone, cutoff) else day - timedelta(days=1)


def gaming_days_of_stored_rounds(apps, schema_editor):
    Round = apps.get_model("rounds", "Round")
    time_zone, cutoff = settings.PITBOSS_GAMING_DAY_TIME_ZONE, settings.PITBOSS_GAMING_DAY_CUTOFF
    span = Round.objects.aggregate(first=Min("opened_at"), last=Max("opened_at"))
    if span["first"] is None:
        return
    day, last = day_of(span["first"], time_zone, cutoff), day_of(span["last"], time_zone, cutoff)
    starts_at = cutoff_on(day, time_zone, cutoff)
    while day <= last:
        ends_at = cutoff_on(day + timedelta(days=1), time_zone, cutoff)
        Round.objects.filter(opened_at__gte=starts_at, opened_at__lt=ends_at).update(gaming_day=day)
        day, starts_at = day + timedelta(days=1), ends_at


class Migration(migrations.Migration):

    dependencies = [
        ('rounds', '0007_round_deal'),
    ]

    operations = [
        migrations.AddField(
            model_name='round',
            name='gaming_day',
            field=models.DateField(null=True, help_text='The gaming day it opened in (core.gaming_day), under the settings when it was stored.'),
        ),
        migrations.RunPython(gaming_days_of_stored_rounds, migrations.RunPython.noop, elidable=True),
    ]

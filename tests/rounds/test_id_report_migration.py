"""The migration that brought the id alphabet prints the ids stored before it that fall outside,
and changes nothing (issue 16)."""

import importlib

import pytest
from django.apps import apps

from limits.models import Player
from rounds.models import Shoe
from tests.factories import table

migration = importlib.import_module("rounds.migrations.0014_report_ids_outside_the_alphabet")


@pytest.mark.django_db
def test_it_prints_each_id_outside_the_alphabet_and_keeps_it(capsys):
    dlx = table("DLX1")
    Player.objects.create(external_id="GS/P1001", currency="EUR")
    Player.objects.create(external_id="P1002", currency="EUR")
    Player.objects.create(external_id="..", currency="EUR")
    Shoe.objects.create(code="S 1", table=dlx)
    Shoe.objects.create(code="S-2", table=dlx)

    migration.report(apps, None)

    printed = capsys.readouterr().out
    assert "Player.external_id outside the id alphabet: 'GS/P1001'" in printed
    assert "Player.external_id outside the id alphabet: '..'" in printed
    assert "Shoe.code outside the id alphabet: 'S 1'" in printed
    assert "P1002" not in printed and "S-2" not in printed
    assert Player.objects.count() == 3 and Shoe.objects.count() == 2


@pytest.mark.django_db
def test_it_prints_nothing_when_every_id_is_in_the_alphabet(capsys):
    Player.objects.create(external_id="P1002", currency="EUR")
    migration.report(apps, None)
    assert capsys.readouterr().out == ""

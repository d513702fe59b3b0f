"""tools/internals.py (make lint): each rule catches its case on a small sample, and what the project
defines itself, or a dependency documents, passes."""

import sys
from textwrap import dedent

import pytest
from django.views.generic import View

from tools.internals import (
    Allowlist,
    Checker,
    overridden_privates,
    override_findings,
    project_names,
    read_settings,
    read_source,
)

SETTINGS = read_settings()
PROJECT = project_names()


def rules(code: str, *elsewhere: str) -> list[str]:
    """The rules `code` breaks, as "rule name-or-module"; `elsewhere` are other project files."""
    sources = [read_source(f"sample{n}.py", dedent(text)) for n, text in enumerate((code, *elsewhere))]
    checker = Checker(SETTINGS.allowlist, PROJECT, set().union(*(source.defined for source in sources)))
    return [f"{finding.rule} {finding.message.split()[0]}" for finding in checker.check(sources[0])]


# --- imports -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, rule",
    [
        ("import psycopg._encodings", "private-module psycopg._encodings"),
        ("from psycopg._encodings import pgconn_encoding", "private-module psycopg._encodings"),
        ("from psycopg import _encodings", "private-module psycopg._encodings"),
        ("from importlib import _bootstrap", "private-name _bootstrap"),
        ("from django.db.models import _a_private_name", "private-name _a_private_name"),
    ],
)
def test_a_private_module_or_name_of_a_dependency_is_caught(code, rule):
    assert rules(code) == [rule]


@pytest.mark.parametrize(
    "code, module",
    [
        ("import psycopg.generators", "psycopg.generators"),
        ("from psycopg import generators", "psycopg.generators"),
        ("from psycopg.waiting import Wait", "psycopg.waiting"),
        ("from django.template.base import render_value_in_context", "django.template.base"),
        ("from django_tables2.columns.linkcolumn import BaseLinkColumn", "django_tables2.columns.linkcolumn"),
        ("from django_tables2.utils import A", "django_tables2.utils"),
        ("from rest_framework.utils.json import strict_constant", "rest_framework.utils.json"),
        ("import importlib\nimportlib.import_module('psycopg.generators')", "psycopg.generators"),
    ],
)
def test_an_undocumented_module_is_caught(code, module):
    assert rules(code) == [f"undocumented-module {module}"]


@pytest.mark.parametrize(
    "code",
    [
        "import psycopg\nfrom psycopg import errors, pq",
        "import psycopg.errors",
        "from django.db import IntegrityError, models, transaction",
        "from django.db.models import F, Q",
        "import django_tables2 as tables\nfrom django_tables2 import A",
        "from decimal import Decimal\nfrom __future__ import annotations",
        "from blackjack.rules import kind_label\nfrom tests.factories import user",
        "from . import _anything_of_the_project",
    ],
)
def test_documented_standard_and_project_imports_pass(code):
    assert rules(code) == []


def test_a_module_imported_for_its_names_must_itself_be_documented():
    assert rules("from django.contrib import admin, messages") == []  # two documented modules
    assert rules("from django.contrib.auth import get_user_model") == []
    assert rules("from django_tables2.columns import LinkColumn") == [
        "undocumented-module django_tables2.columns"
    ]


# --- private attributes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, name",
    [
        ("encoding = connection.pgconn._encoding", "_encoding"),
        ("user._perm_cache = set()", "_perm_cache"),
        ('writer = getattr(copy, "_pgconn")', "_pgconn"),
        ('if hasattr(user, "_perm_cache"): pass', "_perm_cache"),
        ('setattr(user, "_perm_cache", set())', "_perm_cache"),
    ],
)
def test_a_private_attribute_of_a_dependency_is_caught(code, name):
    assert rules(code) == [f"private-attribute {name}"]


def test_documented_private_names_pass():
    code = """
        fields = Round._meta.get_fields()
        limit._change_reason = "opening"
        limit._history_user = user
    """
    assert rules(code) == []


def test_the_projects_own_private_names_pass():
    code = """
        _CACHE = {}

        def _helper():
            return 1

        class Table:
            _kind = "seated"

            def get(self):
                if not hasattr(self, "_table"):
                    self._table = load()
                return self._table, self._kind, module._CACHE, module._helper(), Table._kind
    """
    assert rules(code) == []


def test_a_private_name_defined_in_another_project_file_passes():
    assert rules("cleared = document._amount_of.cache_clear()", "def _amount_of(text): ...") == []


def test_dunders_are_not_private():
    assert rules("name = value.__class__.__name__\nsize = getattr(value, '__len__')") == []


# --- overriding a dependency's private ---------------------------------------------------------------


class ProjectBase:
    def _render(self):
        return ""


class OwnPrivates(View, ProjectBase):
    def _render(self):  # the project's own private: fine to override
        return "x"

    def _own(self):
        return 1


def test_a_class_overriding_a_private_of_a_dependency_is_caught():
    # Made here rather than written as a class: `make lint` would report it.
    overriding = type("OverridesAPrivate", (View,), {"_allowed_methods": lambda self: ["get"]})
    assert overridden_privates(overriding, {"_allowed_methods"}, PROJECT) == [("_allowed_methods", View)]


def test_a_class_with_its_own_privates_or_the_projects_passes():
    assert overridden_privates(OwnPrivates, {"_render", "_own"}, PROJECT) == []


def test_the_runtime_rule_reads_methods_class_attributes_and_self_assignments(tmp_path, monkeypatch):
    code = """
        from django.views.generic import View

        class Page(View):
            _own = 1

            def setup(self, request):
                self._allowed_methods = lambda: ["get"]
                self._mine = True
    """
    (tmp_path / "overriding_sample.py").write_text(dedent(code))
    monkeypatch.syspath_prepend(tmp_path)
    source = read_source("overriding_sample.py", dedent(code))
    assert source.class_names == {"Page": {"_own", "_allowed_methods", "_mine"}}
    try:
        found = override_findings([source], PROJECT)
    finally:
        sys.modules.pop("overriding_sample", None)
    assert [(f.rule, f.line, f.message.split()[0]) for f in found] == [
        ("private-override", 4, "Page._allowed_methods")
    ]


# --- the allowlist -----------------------------------------------------------------------------------


def test_every_allowed_module_and_name_names_its_documentation():
    assert SETTINGS.allowlist.problems() == []
    assert {"_meta", "_change_reason", "_history_user"} <= SETTINGS.allowlist.names.keys()


def test_an_entry_without_its_documentation_is_reported():
    allowlist = Allowlist(modules={"psycopg.generators": ""}, names={"_pgconn": "it works"})
    assert len(allowlist.problems()) == 2

"""A corpus of bad round documents (issue 16): each is what a faulty or hostile game server could send
to `POST /api/rounds/`, and each must be refused with a 4xx that names what is wrong, storing
nothing. `tests/rounds/test_bad_document_corpus.py` replays them all.

A case is a name, its category, the body, and the field its 400 must name (None where the answer is
not a field error: a body that is not JSON, a conflict, a media type). Bodies are built from the
project's fixture rounds, changed in one place each.
"""

import copy
import json
import re
from dataclasses import dataclass

from tests.fixtures import round_document

SEATED = "deluxe-split-double-play-behind"
BOUNDLESS = "boundless-shared-deal-split-double"
MISSING = object()


@dataclass(frozen=True)
class Case:
    name: str
    category: str
    body: bytes
    field: str | None = None  # the key the 400 names, when it is a field's error
    status: int = 400
    content_type: str = "application/json"


def _steps(path: str) -> list[str | int]:
    return [int(part) if part.isdigit() else part for part in re.findall(r"[^.\[\]]+", path)]


def changed(path: str, value: object, *, base: str = SEATED, also: dict | None = None) -> dict:
    """The fixture round `base` with the value at `path` ("bets[1].stake") replaced (MISSING removes
    it), and with `also`'s paths set too."""
    document = round_document(base)
    for where, what in {path: value, **(also or {})}.items():
        *parents, last = _steps(where)
        holder = document
        for step in parents:
            holder = holder[step]
        if what is MISSING:
            holder.pop(last, None)
        else:
            holder[last] = copy.deepcopy(what)
    return document


def as_json(document: object) -> bytes:
    return json.dumps(document).encode()


def field_case(
    name: str, category: str, path: str, value: object, field: str | None = None, **options
) -> Case:
    """The case where `path` holds `value`, refused naming `field` (by default `path` itself)."""
    base = options.pop("base", SEATED)
    also = options.pop("also", None)
    return Case(name, category, as_json(changed(path, value, base=base, also=also)), field or path, **options)


def _ids() -> list[Case]:
    cases = []
    places = {
        "round_id": "round_id",
        "shoe": "shoe",
        "table": "table",
        "spot": "spots[0].spot",
        "player": "spots[1].player",
        "bet_id": "bets[2].bet_id",
        "bet player": "bets[0].player",
    }
    bad = {
        "slash": "DLX1/S9/1",
        "backslash": "P\\1",
        "space": "P 1",
        "only dots": "..",
        "one dot": ".",
        "query": "R?x=1",
        "fragment": "R#1",
        "percent": "R%2F1",
        "non-ascii": "Rü1",
        "too long": "R" * 65,
        "empty": "",
        "nul": "R\x00",
        "number": 1001,
        "list": ["R1"],
        "null": None,
        "sql": "R1';DROP TABLE rounds_round;--",
        "html": "<script>alert(1)</script>",
        "newline": "R1\nR2",
        "right-to-left mark": "R1\u202e",
        "full-width": "\uff32\uff11",
    }
    for place, path in places.items():
        for label, value in bad.items():
            if place == "table" and label in {"number", "list", "null", "too long"}:
                continue  # the same check as the round id's; kept lean
            cases.append(field_case(f"{place} {label}", "ids", path, value))
    cases.append(field_case("round id names a page", "ids", "round_id", "incidents"))
    cases.append(field_case("player id names a page", "ids", "spots[0].player", "new"))
    cases.append(field_case("round id missing", "ids", "round_id", MISSING))
    return cases


def _types_and_ranges() -> list[Case]:
    hand = "spots[0].hands[0]"
    return [
        field_case("status list", "types", "status", ["completed"]),
        field_case("status object", "types", "status", {"completed": True}),
        field_case("status unknown", "types", "status", "finished"),
        field_case("status null", "types", "status", None),
        field_case(
            "cancel reason list", "types", "cancel_reason", ["malfunction"], also={"status": "cancelled"}
        ),
        field_case("cancel reason object", "types", "cancel_reason", {}, also={"status": "cancelled"}),
        field_case("cancel reason missing", "types", "cancel_reason", MISSING, also={"status": "cancelled"}),
        field_case(
            "requested list",
            "types",
            f"{hand}.actions",
            [{"action": "auto_stand", "requested": ["hit"]}, "double"],
            f"{hand}.actions[0].requested",
        ),
        field_case(
            "requested object",
            "types",
            f"{hand}.actions",
            [{"action": "auto_stand", "requested": {"a": 1}}, "double"],
            f"{hand}.actions[0].requested",
        ),
        field_case(
            "requested without auto",
            "types",
            f"{hand}.actions",
            [{"action": "stand", "requested": "hit"}, "double"],
            f"{hand}.actions[0].action",
        ),
        field_case("action number", "types", f"{hand}.actions", [7, "double"], f"{hand}.actions[0]"),
        field_case("action unknown", "types", f"{hand}.actions", ["fold", "double"], f"{hand}.actions[0]"),
        field_case("number 2^31", "ranges", "number", 2**31),
        field_case("number 2^63", "ranges", "number", 2**63),
        field_case("number 2^70", "ranges", "number", 2**70),
        field_case("number zero", "ranges", "number", 0),
        field_case("number negative", "ranges", "number", -1),
        field_case("number float", "types", "number", 23.0),
        field_case("number text", "types", "number", "23"),
        field_case("number true", "types", "number", True),
        field_case("seat 99999", "ranges", "spots[0].seat", 99999),
        field_case("seat -1", "ranges", "spots[0].seat", -1),
        field_case("seat 2^31", "ranges", "spots[0].seat", 2**31),
        field_case("seat text", "types", "spots[0].seat", "2"),
        field_case("seat float", "types", "spots[0].seat", 2.0),
        field_case("stake 13 digits", "ranges", "bets[0].stake", "1234567890123.00"),
        field_case("wagered 13 digits", "ranges", "bets[0].wagered", "9999999999999"),
        field_case("returned 20 digits", "ranges", "bets[0].returned", "9" * 20),
        field_case("stake 3 decimals", "ranges", "bets[0].stake", "10.005"),
        field_case("stake negative", "ranges", "bets[0].stake", "-5.00"),
        field_case("stake zero", "ranges", "bets[0].stake", "0.00"),
        field_case("stake number", "types", "bets[0].stake", 15),
        field_case("stake float", "types", "bets[0].stake", 15.5),
        field_case("stake exponent", "types", "bets[0].stake", "1e3"),
        field_case("stake hex", "types", "bets[0].stake", "0x10"),
        field_case("stake plus sign", "types", "bets[0].stake", "+15.00"),
        field_case("stake spaces", "types", "bets[0].stake", " 15.00 "),
        field_case("stake trailing point", "types", "bets[0].stake", "15."),
        field_case("stake thousands", "types", "bets[0].stake", "1,500.00"),
        field_case("stake NaN", "types", "bets[0].stake", "NaN"),
        field_case("stake Infinity", "types", "bets[0].stake", "Infinity"),
        field_case("stake null", "types", "bets[0].stake", None),
        field_case("stake list", "types", "bets[0].stake", ["15.00"]),
        field_case("kind list", "types", "bets[0].kind", ["main"]),
        field_case("kind unknown", "types", "bets[0].kind", "jackpot"),
        field_case("flag text", "types", "bets[3].follow_double", "yes"),
        field_case("cut card text", "types", "cut_card", "false"),
        field_case("cut card number", "types", "cut_card", 0),
        field_case("hand 30 cards", "ranges", f"{hand}.cards", ["2C"] * 30),
        field_case("hand 22 cards", "ranges", f"{hand}.cards", ["AC"] * 22),
        field_case("dealer 30 cards", "ranges", "dealer", ["2C"] * 30),
        field_case("shared draws 500", "ranges", "shared.draws", ["2C"] * 500, base=BOUNDLESS),
        field_case("shared initial 30", "ranges", "shared.initial", ["2C"] * 30, base=BOUNDLESS),
        field_case("card lowercase", "types", f"{hand}.cards", ["6d", "5H", "9C"], f"{hand}.cards[0]"),
        field_case("card ten as 10", "types", f"{hand}.cards", ["10D", "5H", "9C"], f"{hand}.cards[0]"),
        field_case("card number", "types", f"{hand}.cards", [6, "5H", "9C"], f"{hand}.cards[0]"),
        field_case("dealer card unknown", "types", "dealer", ["5C", "1X"], "dealer[1]"),
        field_case("opened year 1 +14:00", "times", "opened_at", "0001-01-01T00:00+14:00"),
        field_case("opened year 1 UTC", "times", "opened_at", "0001-01-01T00:00Z"),
        field_case("opened 1999", "times", "opened_at", "1999-12-31T23:59:59Z"),
        field_case("opened 9999 no zone", "times", "opened_at", "9999-12-31"),
        field_case("opened 9999 -14:00", "times", "opened_at", "9999-12-31T23:59:59-14:00"),
        field_case("opened 9999 UTC", "times", "opened_at", "9999-12-31T23:59:59Z"),
        field_case("closed 9999 -14:00", "times", "closed_at", "9999-12-31T23:59:59-14:00"),
        field_case("opened no zone", "times", "opened_at", "2026-11-28T18:20:05"),
        field_case("opened not a time", "times", "opened_at", "yesterday"),
        field_case("opened number", "times", "opened_at", 1764354005),
        field_case("opened long text", "times", "opened_at", "2026-11-28T18:20:05Z" + " " * 100),
        field_case("closed before opened", "times", "closed_at", "2026-11-28T18:20:04Z"),
        field_case("closed next year", "times", "closed_at", "2099-01-01T00:00:00Z"),
    ]


def _shapes() -> list[Case]:
    hand = "spots[0].hands[0]"
    return [
        field_case("format 1.0", "format", "format", 1.0),
        field_case("format 2", "format", "format", 2),
        field_case("format text", "format", "format", "1"),
        field_case("format true", "format", "format", True),
        field_case("format missing", "format", "format", MISSING),
        field_case("stake arabic-indic digits", "format", "bets[0].stake", "١٥.٠٠"),
        field_case("stake full-width digits", "format", "bets[0].stake", "１５.００"),
        field_case("stake devanagari digits", "format", "bets[0].stake", "१५.००"),
        field_case("hands object", "shapes", "spots[0].hands", {}),
        field_case("hands text", "shapes", "spots[0].hands", "6D 5H"),
        field_case("hands null", "shapes", "spots[0].hands", None),
        field_case("hand list", "shapes", hand, ["6D", "5H"]),
        field_case("actions object", "shapes", f"{hand}.actions", {"stand": 1}),
        field_case("actions text", "shapes", f"{hand}.actions", "stand"),
        field_case("cards object", "shapes", f"{hand}.cards", {"6D": 1}),
        field_case("cards text", "shapes", f"{hand}.cards", "6D 5H 9C"),
        field_case("spots object", "shapes", "spots", {}),
        field_case("spots missing", "shapes", "spots", MISSING),
        field_case("spot a list", "shapes", "spots[0]", ["2"]),
        field_case("bets object", "shapes", "bets", {}),
        field_case("bets null", "shapes", "bets", None),
        field_case("bet text", "shapes", "bets[0]", "D23-1"),
        field_case("dealer object", "shapes", "dealer", {"up": "5C"}),
        field_case("shared list", "shapes", "shared", ["4C", "4S"], base=BOUNDLESS),
        field_case("shared without initial", "shapes", "shared.initial", MISSING, base=BOUNDLESS),
        field_case("bet on a missing spot", "shapes", "bets[0].spot", "9"),
        field_case("bet id twice", "shapes", "bets[1].bet_id", "D23-1"),
        field_case("spot twice", "shapes", "spots[1].spot", "2", "spots[1].spot"),
        field_case("table unknown", "shapes", "table", "DLX9"),
        Case("document a list", "shapes", as_json([round_document(SEATED)]), "document"),
        Case("document a string", "shapes", as_json("round"), "document"),
        Case("document null", "shapes", b"null", "document"),
        Case("document a number", "shapes", b"1", "document"),
        Case("batch not a list", "batch", as_json({"rounds": {"a": 1}}), "rounds"),
        Case("batch empty", "batch", as_json({"rounds": []}), "rounds"),
        Case(
            "batch with one bad round",
            "batch",
            as_json({"rounds": [round_document(SEATED), changed("bets[0].stake", "-1")]}),
            "rounds[1].bets[0].stake",
        ),
        Case("batch with an extra key", "batch", as_json({"rounds": [round_document(SEATED)], "x": 1}), "x"),
    ]


def _encodings() -> list[Case]:
    good = as_json(round_document(SEATED))
    return [
        Case("empty body", "json", b""),
        Case("not json", "json", b"round please"),
        Case("truncated json", "json", good[: len(good) // 2]),
        Case("trailing garbage", "json", good + b"}"),
        Case("NaN literal", "json", good.replace(b'"number": 23', b'"number": NaN')),
        Case("Infinity literal", "json", good.replace(b'"number": 23', b'"number": Infinity')),
        Case("exponent 1e400", "json", good.replace(b'"number": 23', b'"number": 1e400'), "number"),
        Case("invalid utf-8", "json", good.replace(b'"DLX1-S0412-023"', b'"DLX1-\xff\xfe"')),
        Case("lone surrogate", "json", good.replace(b'"P7101"', b'"P\\ud800"', 1), "spots[0].player"),
        Case("utf-16 body", "json", json.dumps(round_document(SEATED)).encode("utf-16")),
        Case("nested 1,500 lists", "json", b"[" * 1500 + b"]" * 1500),
        Case("nested 1,500 objects", "json", b'{"a":' * 1500 + b"1" + b"}" * 1500),
        Case(
            "nested deep in a round",
            "json",
            good.replace(b'"shared": null', b'"shared": ' + b"[" * 2000 + b"]" * 2000),
        ),
        Case("form body", "media", b"round_id=R1", content_type="application/x-www-form-urlencoded"),
        Case("text body", "media", good, status=415, content_type="text/plain"),
        Case("xml body", "media", b"<round/>", status=415, content_type="application/xml"),
    ]


def _conflicts() -> list[Case]:
    """Refused as conflicts with the fixture round SEATED, which the replay stores first."""
    return [
        field_case(
            "same round id, other content, new shoe",
            "conflicts",
            "shoe",
            "NEW-SHOE-1",
            "round_id",
            status=409,
            also={"cut_card": True},
        ),
        field_case(
            "same round id, other stake", "conflicts", "bets[0].stake", "16.00", "round_id", status=409
        ),
        field_case(
            "bet id another round holds",
            "conflicts",
            "round_id",
            "DLX1-S0412-024",
            "bets[0].bet_id",
            status=409,
            also={"number": 24, "shoe": "NEW-SHOE-2"},
        ),
    ]


def corpus() -> list[Case]:
    return [*_ids(), *_types_and_ranges(), *_shapes(), *_encodings(), *_conflicts()]

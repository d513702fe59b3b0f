"""The manifest's signature: HMAC-SHA256 under PITBOSS_ARCHIVE_MANIFEST_KEY of the manifest's bytes
as written (`manifest_bytes`), the signature itself left out. A file that is changed in the archive no
longer matches the manifest's sha256; the signature keeps the manifest from being changed to match it
(in the archive or in the database's copy) by anyone without the key.

With no key set (development), manifests are written unsigned and none is checked. With one set,
every manifest must carry a valid signature: one written before the key was set is signed by
`python manage.py archive_check --sign`, once each of its files is checked against it.
"""

import hashlib
import hmac
import json

from django.conf import settings

SIGNATURE = "signature"
ALGORITHM = "HMAC-SHA256"
SIGN_COMMAND = "python manage.py archive_check --sign"


def manifest_bytes(manifest: dict) -> bytes:
    """The manifest as manifest.json holds it."""
    return json.dumps(manifest, indent=2, sort_keys=True).encode() + b"\n"


def manifest_key() -> bytes | None:
    key = settings.PITBOSS_ARCHIVE_MANIFEST_KEY
    return key.encode() if key else None


def signature_of(manifest: dict, key: bytes) -> str:
    unsigned = {name: value for name, value in manifest.items() if name != SIGNATURE}
    return hmac.new(key, manifest_bytes(unsigned), hashlib.sha256).hexdigest()


def manifest_signed(manifest: dict) -> dict:
    """`manifest` with its signature (unchanged without a key)."""
    key = manifest_key()
    if key is None:
        return manifest
    return {**manifest, SIGNATURE: {"algorithm": ALGORITHM, "value": signature_of(manifest, key)}}


def signature_problem(manifest: dict) -> str | None:
    """What is wrong with the manifest's signature; None when it is valid (or no key is set)."""
    key = manifest_key()
    if key is None:
        return None
    signature = manifest.get(SIGNATURE)
    if not isinstance(signature, dict) or "value" not in signature:
        return f"the manifest is not signed (sign it, once its files are checked: {SIGN_COMMAND})"
    if signature.get("algorithm") != ALGORITHM or not hmac.compare_digest(
        str(signature["value"]), signature_of(manifest, key)
    ):
        return (
            "the manifest's signature does not match it: it was changed after it was signed, or signed "
            "with another key"
        )
    return None

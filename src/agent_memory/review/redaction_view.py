"""The browser's Redact view: the form removing a text from every record of the tenant, and
the receipt of what it rewrote, store by store.

The text is a secret the scrubber missed: it is posted once and never shown again, neither in
a page, nor in an address (the receipt's page is named by a random token), nor in a log line.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.core.workflows.redaction import TextRedacted
from agent_memory.review.layout import ActionForm, e, fields_list, section, when

REDACT_VIEW_PATH = "/redact"
REDACT_PATH = "/redact/text"
REDACTED_PATH = "/redacted"

_ABOUT = (
    "Every record of this tenant that holds the text, as a reader would read it (any case, "
    "look-alike characters folded), is rewritten with the text replaced: episodes (embedded "
    "again), facts, procedures, the run ledger, flags' and the history's reasons. The history "
    "keeps who, why and a SHA-256 digest of the text, never the text; this page does not show "
    "it again either."
)


def redact_form(csrf_token: str, tenant_id: str) -> str:
    """What a redaction does, then its form (the text field never filled in, never stored by
    the browser: no autocomplete, no spelling check sent anywhere).
    """
    form = ActionForm(
        name="redact",
        action=REDACT_PATH,
        button="Redact",
        confirm="Rewrite every record holding this text, for good (it cannot be undone)",
        fields='<label>Text to remove <span class="hint">(exactly as written: a short text '
        'matches more records)</span><textarea name="text" rows="2" autocomplete="off" '
        'autocapitalize="off" spellcheck="false" '
        'data-required="Give the text to remove."></textarea></label>',
    )
    return f'<p class="hint">{e(_ABOUT)}</p>' + section(
        "Redact a text", form.html(csrf_token, tenant_id)
    )


def redaction_receipt(receipt: TextRedacted) -> str:
    """What a redaction rewrote, store by store (never the text: its digest)."""
    if not receipt.found:
        return '<p class="empty">No record of this tenant held that text: nothing changed.</p>'
    fields = [
        ("When", e(when(receipt.at))),
        ("Digest of the text (SHA-256)", f"<code>{e(receipt.digest)}</code>"),
        ("Episodes rewritten", _counted(receipt.episodes)),
        ("Facts rewritten (old hash → new)", _counted(receipt.facts)),
        ("Facts merged into one holding the same text", _counted(receipt.facts_merged)),
        ("Procedures rewritten", _counted(receipt.procedures)),
        ("Ledger records rewritten", e(receipt.ledger_records)),
        ("Flags' reasons rewritten", e(receipt.flags)),
        ("History reasons rewritten", e(receipt.decisions)),
        ("Knowledge-base documents written again", e(receipt.kb_documents)),
        ("Knowledge-base index", e(receipt.kb_index)),
        ("History entry", e(receipt.decision_id or "—")),
    ]
    return f'<article class="record receipt redaction">{fields_list(fields)}</article>'


def _counted(names: Sequence[str]) -> str:
    if not names:
        return "0"
    listed = "".join(f"<li>{e(name)}</li>" for name in names)
    return f"{len(names)}<ul>{listed}</ul>"

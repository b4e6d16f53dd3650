"""The browser's facts: the tenant's facts page by page (of one status), one fact with its
provenance (which agents' runs confirmed it, when each counts again, whether the knowledge base
serves it) and its Retract and Correct forms, and the form asserting a fact of one's own.
"""

from __future__ import annotations

from agent_memory.core.api.fact_record import FactPage, FactRecord
from agent_memory.core.model.models import FactStatus
from agent_memory.review.layout import (
    ActionForm,
    e,
    fields_list,
    link,
    pager,
    row,
    section,
    table,
    when,
)

FACTS_PATH = "/facts"
FACT_PATH = "/fact"
RETRACT_PATH = "/facts/retract"
CORRECT_PATH = "/facts/correct"
ASSERT_PATH = "/facts/assert"


def facts_list(page: FactPage, status: str | None, csrf_token: str, tenant_id: str) -> str:
    """The status filter, one page of facts each linked to its page, then the assert form."""
    options = '<option value="">any</option>' + "".join(
        f'<option value="{s.value}"{" selected" if s.value == status else ""}>{s.value}</option>'
        for s in FactStatus
    )
    choose = (
        f'<form class="search" method="get" action="{FACTS_PATH}">'
        f'<label>Status <select name="status">{options}</select></label>'
        '<button type="submit">Show</button></form>'
    )
    rows = [
        row(
            link(FACT_PATH, fact["content"], domain=fact["domain"], hash=fact["fact_hash"]),
            e(fact["status"]),
            e(fact["domain"]),
            e(fact["confirmations"]),
            e(fact["served_from"] or "not served"),
            fact_hash=fact["fact_hash"],
        )
        for fact in page["facts"]
    ]
    listing = table(
        ("Fact", "Status", "Domain", "Confirmations", "Served from"), rows, "No facts here."
    )
    more = pager(FACTS_PATH, page["cursor"], status=status or "")
    return choose + listing + more + _assert_form(csrf_token, tenant_id)


def fact_page(fact: FactRecord, csrf_token: str, tenant_id: str) -> str:
    """Every field of the fact and its provenance, then the forms that repair it."""
    counted = [
        f"<li>{e(agent)}: last counted {e(when(at))}, counts again "
        f"{e(when(fact['counts_again_at'].get(agent)))}</li>"
        for agent, at in sorted(fact["counted_by"].items())
    ]
    superseded = fact["superseded_by"]
    fields = [
        ("Fact", e(fact["content"])),
        ("Status", e(fact["status"])),
        ("Domain", e(fact["domain"])),
        ("Hash", f"<code>{e(fact['fact_hash'])}</code>"),
        ("Sightings", e(fact["sightings"])),
        ("Confirmations", e(f"{fact['confirmations']} independent")),
        ("Agents", f"<ul>{''.join(counted)}</ul>" if counted else "—"),
        ("Runs", e(", ".join(fact["run_ids"]) or "—")),
        ("First seen", e(when(fact["first_seen"]))),
        ("Last seen", e(when(fact["last_seen"]))),
        ("Confirmed", e(when(fact["confirmed_at"]))),
        ("Served from", e(fact["served_from"] or "not served")),
        ("Knowledge-base document", e(fact["kb_document"] or "none")),
        ("Review note", e(fact["review_note"] or "—")),
        ("Asserted by", e(fact["asserted_by"] or "—")),
        (
            "Superseded by",
            link(FACT_PATH, superseded, domain=fact["domain"], hash=superseded)
            if superseded
            else "—",
        ),
    ]
    record = (
        f'<article class="record fact" data-fact-hash="{e(fact["fact_hash"])}">'
        f"{fields_list(fields)}</article>"
    )
    if fact["status"] == FactStatus.RETRACTED.value:
        return record + '<p class="hint">Retracted: it is served nowhere.</p>'
    ids = (("domain", fact["domain"]), ("fact_hash", fact["fact_hash"]))
    retract = ActionForm(
        name="retract",
        action=RETRACT_PATH,
        button="Retract",
        confirm="Retract it: served nowhere from the next bootstrap on, never promoted again",
        hidden=ids,
    )
    correct = ActionForm(
        name="correct",
        action=CORRECT_PATH,
        button="Correct",
        confirm="Put my text in its place, confirmed at once (the old one is retracted)",
        hidden=ids,
        fields='<label>The right text <textarea name="content" maxlength="2000" rows="3" '
        'data-required="Give the right text of the fact."></textarea></label>',
    )
    return (
        record
        + section("Retract", retract.html(csrf_token, tenant_id))
        + section("Correct", correct.html(csrf_token, tenant_id))
    )


def _assert_form(csrf_token: str, tenant_id: str) -> str:
    form = ActionForm(
        name="assert",
        action=ASSERT_PATH,
        button="Assert",
        confirm="Serve it as confirmed in my name from the next bootstrap on",
        fields='<label>Domain <input type="text" name="domain" maxlength="128" '
        'data-required="Name the fact\'s domain."></label>'
        '<label>Fact <textarea name="content" maxlength="2000" rows="3" '
        'data-required="Give the text of the fact."></textarea></label>',
    )
    return section("Assert a fact", form.html(csrf_token, tenant_id))

"""A hand-labelled corpus for the local PII detector, written as a contract-review agent writes.

Each sentence marks its entities inline as ``{TYPE:text}``; ``parse`` strips the marks and
returns the gold spans. NAME spans leave out titles ("Dr. {NAME:Maria Garcia}"), as Amazon
Comprehend does. Sentences without marks hold no personal data and count for precision.

DEV was used while writing the rules. DEV_2 was written as a held-out set, measured once, and
then used for tuning too. HELD_OUT was written after that tuning and has not been tuned on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agent_memory.core.ports import PiiEntity

_MARK = re.compile(r"\{([A-Z_]+):([^{}]+)\}")

DEV: tuple[str, ...] = (
    "Please contact {NAME:John Smith} at {EMAIL:john.smith@example.com} or {PHONE:(555) 123-4567}.",
    "The amendment was reviewed by Dr. {NAME:Maria Garcia} on Monday, May 5.",
    "Signed by {NAME:Jean-Luc Picard} on behalf of Starfleet Holdings LLC.",
    "Dear Ms. {NAME:O'Neil}, thank you for returning the signed Master Services Agreement.",
    "Attendees: {NAME:Smith, John}; {NAME:Nguyen, Thi}; {NAME:Okafor, Chinedu}.",
    "The Vendor shall not exceed the Liability Cap defined in Clause 7.3.",
    "Under Section 12.4 of the Agreement, either Party may terminate with 30 days' notice.",
    "Will the Supplier accept a cap of $2,500,000 per claim?",
    "May 2024 invoices (INV-2024-0042 through INV-2024-0057) remain unpaid.",
    "Acme Corp and Globex International signed the Data Processing Addendum on 2024-03-15.",
    "Email from {NAME:Priya Sharma} ({EMAIL:priya.sharma@globex.co.uk}) confirming the renewal.",
    "Her SSN is {SSN:123-45-6789} and the number on the old form is {SSN:078 05 1120}.",
    "Charge the card {CREDIT_DEBIT_NUMBER:4111 1111 1111 1111}, expiry 12/27.",
    "Refund to Mastercard {CREDIT_DEBIT_NUMBER:5555-5555-5555-4444} was processed.",
    "The Amex on file ends in 0005; full number {CREDIT_DEBIT_NUMBER:378282246310005}.",
    "The reference 4111 1111 1111 1112 fails the checksum and is not a card.",
    "Traffic came from {IP_ADDRESS:192.168.10.24} and {IP_ADDRESS:2001:db8:85a3::8a2e:370:7334}.",
    "The server at {IP_ADDRESS:10.0.0.5}:8443 runs version 4.2.1.7 of the gateway.",
    "Ship the originals to {ADDRESS:1600 Pennsylvania Avenue NW, Washington, DC 20500}.",
    "{NAME:Sherlock Holmes} lived at {ADDRESS:221B Baker Street, London}.",
    "Send notices to {ADDRESS:12 Main St., Apt 4, Springfield, IL 62704}.",
    "Remit payment to {ADDRESS:PO Box 123, Austin, TX 78701}.",
    "Call {NAME:Carlos} on {PHONE:+44 20 7946 0958} or his mobile {PHONE:07700 900123}.",
    "Our Berlin office number is {PHONE:+49 30 12345678}.",
    "For urgent matters ring {PHONE:1-800-555-0199 ext. 12}.",
    "Reach the hotline at {PHONE:202.456.1111} between 9:00 and 17:00.",
    "Order 4155550123 shipped on 03/04/2024 with tracking 1Z999AA10123456784.",
    "The ISBN 978-3-16-148410-0 edition is cited in Exhibit B.",
    "Net 45 payment terms apply; late fees accrue at 1.5% per month.",
    "{NAME:Wei Zhang} and {NAME:Aisha Bello} will join the call with Procurement on Tuesday.",
    "According to Mr. {NAME:Thompson}, the indemnity should be mutual.",
    "cc: {NAME:Olivia Brown}, {NAME:Liam Johnson}",
    "Best regards,\n{NAME:Hannah Müller}\nSenior Counsel, Initech GmbH",
    "{NAME:Sarah} approved the redlines and asked Legal to circulate them.",
    "The Governing Law clause selects the courts of New York.",
    "Microsoft Teams and Google Drive links were removed from the Statement of Work.",
    "Please forward the NDA to {NAME:Kenji Watanabe} ({PHONE:+81 3-1234-5678}).",
    "The contact person is {NAME:Ahmed Al-Farsi}, reachable at {EMAIL:a.alfarsi@example.ae}.",
    "Grace period: 15 business days after written notice.",
    "Mark the Termination for Convenience clause as high risk.",
    "Bill the Customer quarterly in arrears.",
    "{NAME:Grace Hopper} reviewed the Service Level Agreement last week.",
    "Meeting notes from {NAME:Jennifer Lee}: the Buyer wants an uncapped data breach indemnity.",
    "Liability Cap: 12 months of fees; Super Cap: 3x fees for Data Protection breaches.",
    "The parties agree that Clause 14.2.1 survives termination.",
    "The loan was signed by {NAME:Maria de la Cruz} and witnessed by {NAME:J. R. Smith}.",
    "Our counsel, {NAME:Fatima Khan}, flagged the exclusivity provision.",
    "Thanks {NAME:Tom}, I'll update the risk register.",
    "{NAME:O'Brien} said the Vendor would not accept unlimited liability.",
    "Version 2.3.1.4 of the template replaces the 2019 form.",
    "The total contract value is USD 1,250,000.00 over 36 months.",
    "Invoice #000123456 dated 01/02/2025 references PO 4500012345.",
    "Deliveries go to {ADDRESS:350 Fifth Avenue, Suite 3300, New York, NY 10118}.",
    "{NAME:Anna Kowalski} (Head of Procurement) requested a 10% discount.",
    "Escalate to {NAME:Rajesh Kumar} if the SLA credit exceeds 5%.",
    "The Supplier's Chief Executive Officer must countersign.",
    "Docusign envelope ID 3f2c9a1e-7b4d-4c1a-9e2f-0a1b2c3d4e5f was voided.",
    "Message {NAME:Li Na} on WeChat or call {PHONE:+86 138 0013 8000}.",
    "The Buyer is Hooli Inc., a Delaware corporation with offices at "
    "{ADDRESS:1 Hacker Way, Menlo Park, CA 94025}.",
    "Friday's call with {NAME:Diego Hernández} covered the warranty carve-outs.",
    "Dear {NAME:Chinwe},\nPlease find attached the revised Schedule 3.",
    "From: {NAME:Elena Petrova} <{EMAIL:elena.petrova@example.ru}>",
    "Login attempts from {IP_ADDRESS:203.0.113.77} were blocked by the firewall.",
    "IPv6 loopback {IP_ADDRESS:::1} and link-local {IP_ADDRESS:fe80::1ff:fe23:4567:890a} "
    "appear in the logs.",
    "The SOW lists 3 milestones: Design (May 1), Build (June 15) and Launch (August 30).",
    "Apple, Amazon and Oracle are named as competitors in Schedule 5.",
    "The Effective Date is the later of the two signature dates.",
    "Payment by Visa {CREDIT_DEBIT_NUMBER:4012888888881881} was declined.",
    "Her social security number, {SSN:219-09-9999}, was redacted in the final copy.",
    "Ask {NAME:Benjamin Carter} whether Exhibit C still applies.",
    "Jordan and Georgia were excluded from the Territory.",
    "The Austin office will handle onboarding for Dallas and Houston clients.",
    "Key contacts: {NAME:Emily Davis} (Legal), {NAME:Michael Chen} (Finance), "
    "{NAME:Sofia Rossi} (Procurement).",
    "The auditors, Deloitte & Touche LLP, will review the Q3 results.",
    "{NAME:Nnamdi Okonkwo} wrote that the penalty clause is unenforceable.",
    "Send the signed copy to Ms. {NAME:Yuki Tanaka} at "
    "{ADDRESS:3-2-1 Marunouchi, Chiyoda-ku, Tokyo 100-0005}.",
    "Reminder: the renewal notice deadline is 31 January 2026.",
    "{NAME:Robert Brown Jr.} will act as the Customer's authorised representative.",
    "He said the Vendor's Q4 forecast is $3.2M.",
    "{NAME:Mohammed} from Finance will send the wire details.",
    "Tel.: {PHONE:+33 1 42 68 53 00} / Fax: {PHONE:+33 1 42 68 53 01}",
    "Send a copy to {EMAIL:legal-notices@acme-corp.com}.",
    "The Master Services Agreement, the Order Form and the Acceptable Use Policy form the "
    "entire agreement.",
    "Spoke with {NAME:Lucas Martin} and {NAME:Chloé Dubois} about the GDPR transfer clauses.",
    "Contact Support via the portal; do not email individual engineers.",
)

DEV_2: tuple[str, ...] = (
    "Summary of the call with {NAME:Sean O'Connor} (GC, Northwind Traders): he will send the "
    "executed copy by Friday.",
    "{NAME:Anika Patel} flagged that Clause 9.2 lets the Licensor audit on 5 days' notice.",
    "Prof. {NAME:Oyelaran} reviewed the Data Transfer Impact Assessment.",
    "The payment schedule in Annex 2 is USD 40,000 per quarter, invoiced net 30.",
    "Please update the counterparty record: {NAME:María José Rodríguez}, "
    "{EMAIL:mj.rodriguez@contoso.es}, {PHONE:+34 912 345 678}.",
    "The Limitation of Liability excludes Gross Negligence and Wilful Misconduct.",
    "Risk: the Customer may assign the Agreement to an Affiliate without consent.",
    "{NAME:Sven Eriksson} and {NAME:Giorgos Papadopoulos} are the named Key Personnel.",
    "Store the backup on {IP_ADDRESS:172.16.254.1} only; never on public buckets.",
    "The DPA references Standard Contractual Clauses Module 2 and Module 3.",
    "Notices must be sent to {ADDRESS:500 Oracle Parkway, Redwood City, CA 94065}, "
    "attention: General Counsel.",
    "{NAME:Leila Haddad} asked whether the non-compete survives for 24 months.",
    "Wire the deposit using card {CREDIT_DEBIT_NUMBER:6011 1111 1111 1117} or by ACH.",
    "The number 1234 5678 9012 3456 on the purchase order is a cost centre code.",
    "The vendor's helpdesk is {PHONE:+1 (800) 642-7676}, available 24/7.",
    "Landlord: {NAME:Harold Finch}, {ADDRESS:27 Elm Street, Apt 3B, Boston, MA 02118}.",
    "Section 4.1.2.3 sets the service credits; release 3.10.2.1 fixed the uptime report.",
    "Approved by {NAME:Kim Min-jun} on 2025-02-11 after the Steering Committee meeting.",
    "Thanks,\n{NAME:Zoe}",
    "The indemnity is capped at two times the fees paid in the prior 12 months.",
    "Hello {NAME:Tanvir}, the redline is attached; {NAME:Priscilla} will countersign.",
    "We spoke to Microsoft and Salesforce about their standard terms.",
    "Employee {NAME:Jamal Washington} (SSN {SSN:536-90-4399}) is covered by the policy.",
    "Schedule 4: Pricing. Schedule 5: Security Requirements. Schedule 6: Exit Plan.",
    "Contact Dr. {NAME:Ingrid Svensson} on {PHONE:+46 8 123 456 78} for the clinical data.",
    "Forward any subpoena to {EMAIL:subpoena@lawfirm.example} within 2 business days.",
    "{NAME:Ethan} mentioned the Vendor is moving its data centre to Dublin.",
    "The SaaS platform stores logs from {IP_ADDRESS:2606:4700:4700::1111} for 90 days.",
    "Renewal price increases are limited to CPI plus 3%.",
    "The parties met in Chicago on 14 March to negotiate the Master Agreement.",
    "{NAME:Lucy Chen}'s comments on the warranty section were accepted.",
    "Bank details: account 12345678, sort code 20-00-00, reference ACME-2025-001.",
    "Mail the cheque to {ADDRESS:PO Box 4410, Dallas, TX 75208}.",
    "The Statement of Work names {NAME:Carlos Mendes} as Project Manager and "
    "{NAME:Aiko Yamada} as Technical Lead.",
    "Change Request CR-0042 was approved by the Change Advisory Board.",
    "Ring {NAME:Bob} at {PHONE:415-555-0132} if the courier is late.",
    "Holiday coverage: Christmas Day and Boxing Day are excluded from the SLA.",
    "Witness: {NAME:Patrick Dubois}, {ADDRESS:14 Rue de Rivoli, 75004 Paris}",
    "The audit firm Ernst & Young will review the controls.",
    "Per {NAME:Hiroshi}, the Japanese subsidiary signs separately.",
    "Ms. {NAME:Adeyemi} confirmed the indemnity cap of GBP 5,000,000.",
    "Terminate for cause if uptime falls below 99.5% in any 3 consecutive months.",
    "The template was last updated by {NAME:rachel green} in SharePoint.",
    "Escrow agent: Iron Mountain; release conditions in Appendix D.",
    "{NAME:Chen Wei} will present the findings to the Board on Thursday.",
    "Regional contact for EMEA is {NAME:Fatou Diallo}, {PHONE:+221 33 123 45 67}.",
    "Visa ending 4242 was charged; no full card number is stored.",
    "Our Lead Counsel, {NAME:Margaret Osei}, drafted the rider.",
    "Use https://portal.example.com/tickets to raise Severity 1 incidents.",
)


HELD_OUT: tuple[str, ...] = (
    "Action items: {NAME:Priyanka} to circulate the revised DPA; {NAME:Marcus Webb} to confirm "
    "the insurance certificate.",
    "The Supplier warrants that the Deliverables will conform to the Specifications for 90 days.",
    "Per the email from {NAME:Dana Whitfield} on 3 June, the go-live slips to Q3.",
    "Customer Success Manager: {NAME:Olumide Adebayo} ({EMAIL:olumide.adebayo@fabrikam.com})",
    "Clause 18 (Force Majeure) does not cover pandemics or cyber attacks.",
    "Confirmed with {NAME:Isabel Ferreira} that the Brazilian entity is a party.",
    "The escalation contact is {NAME:Tom Becker}, mobile {PHONE:+49 151 23456789}.",
    "Sign-off requires the CFO and the Head of Legal.",
    "Card {CREDIT_DEBIT_NUMBER:5105-1051-0510-5100} was flagged by the fraud team.",
    "Quote Q-2025-117 expires on 30 September 2025.",
    "{NAME:Rebecca Stone} said the liability carve-outs are market standard.",
    "Red-flag: unlimited indemnity for IP infringement in Section 11.3.",
    "The registered office is at {ADDRESS:8 Canada Square, London E14 5HQ}.",
    "Please call {PHONE:(212) 555-0187} to schedule the walkthrough with Ms. {NAME:Kaur}.",
    "Suspicious requests originated from {IP_ADDRESS:45.33.32.156} and {IP_ADDRESS:198.51.100.14}.",
    "The purchase order total of EUR 84,500 includes VAT at 21%.",
    "Hi {NAME:Mateo}, could you check whether Amendment No. 2 was countersigned?",
    "{NAME:Kwame Mensah} and {NAME:Yara Haddad} attended on behalf of the Customer.",
    "The Software License Agreement grants a non-exclusive, non-transferable licence.",
    "Her date of birth and SSN ({SSN:401-23-5567}) must not be stored in the ticket.",
    "Ask {NAME:Will} to reconcile the credits before the Quarterly Business Review.",
    "The contract is governed by the laws of the State of Delaware.",
    "Ticket assigned to {NAME:Nadia Petrenko}; priority P2.",
    "Mr. {NAME:Fernández} noted that the arbitration seat should be Madrid, not Miami.",
    "Backup site: {ADDRESS:4500 Technology Drive, Suite 210, Raleigh, NC 27606}.",
    "Amazon Web Services and Google Cloud are approved subprocessors.",
    "{NAME:Jonathan Reyes}, VP of Sales, requested a 15% uplift cap.",
    "The renewal term is 12 months unless either party gives 60 days' notice.",
    "Tel {PHONE:020 7123 4567} (switchboard) or email {EMAIL:reception@harbour-legal.co.uk}.",
    "Approved. {NAME:Sophie} will upload the signed PDF to the contract repository.",
    "The vendor portal blocks logins from {IP_ADDRESS:fd12:3456:789a:1::1}.",
    "Our records show payment from card {CREDIT_DEBIT_NUMBER:3530111333300000}.",
    "Acceptance testing must complete within 10 Business Days of delivery.",
    "Minutes taken by {NAME:Hugo Lambert}; next meeting Wednesday at 10:00 CET.",
    "The Subscription Fees for Year 2 are USD 118,000, payable annually in advance.",
    "Regards,\n{NAME:Aditi Rao}\nContracts Analyst",
    "The model clauses were updated on 2021-06-04 by the European Commission.",
    "Route physical notices to {ADDRESS:1 Infinite Loop, Cupertino, CA 95014}.",
    "{NAME:Emma Thompson}'s team owns the Data Protection Impact Assessment.",
    "No personal data is processed under this Statement of Work.",
    "Call the duty lawyer on {PHONE:+61 2 9876 5432} outside office hours.",
    "Discussed with Legal and Finance; no objections to the payment terms.",
    "Signed for and on behalf of Contoso Ltd by {NAME:Daniel Okoro}, Director.",
    "The SLA promises 99.9% availability measured monthly, excluding Planned Maintenance.",
    "Reviewer: {NAME:Claire Bennett}. Status: approved with comments.",
)


@dataclass(frozen=True, slots=True)
class Labelled:
    """A corpus sentence without its marks, and its gold entities."""

    text: str
    gold: tuple[PiiEntity, ...]


def parse(marked: str) -> Labelled:
    """Strip ``{TYPE:text}`` marks, recording where each entity lands in the plain text."""
    parts: list[str] = []
    gold: list[PiiEntity] = []
    length = 0
    cursor = 0
    for m in _MARK.finditer(marked):
        before = marked[cursor : m.start()]
        parts.append(before)
        length += len(before)
        value = m.group(2)
        gold.append(PiiEntity(m.group(1), length, length + len(value)))
        parts.append(value)
        length += len(value)
        cursor = m.end()
    parts.append(marked[cursor:])
    return Labelled("".join(parts), tuple(gold))


@dataclass(frozen=True, slots=True)
class Scores:
    """Entity counts for one type; a match is an overlapping span of the same type."""

    gold: int
    predicted: int
    found: int  # gold entities overlapped by a prediction of their type
    correct: int  # predictions overlapping a gold entity of their type
    exact: int  # gold entities predicted with exactly their boundaries

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 1.0


def _overlaps(a: PiiEntity, b: PiiEntity) -> bool:
    return a.type == b.type and a.begin < b.end and b.begin < a.end


def score(
    pairs: Iterable[tuple[Sequence[PiiEntity], Sequence[PiiEntity]]], types: Iterable[str]
) -> dict[str, Scores]:
    """Per-type scores over (gold, predicted) pairs, plus "ALL" over every type."""
    wanted = [*types, "ALL"]
    counts = {t: [0, 0, 0, 0, 0] for t in wanted}
    for gold, predicted in pairs:
        for kind in wanted:
            g = [e for e in gold if kind in ("ALL", e.type)]
            p = [e for e in predicted if kind in ("ALL", e.type)]
            c = counts[kind]
            c[0] += len(g)
            c[1] += len(p)
            c[2] += sum(any(_overlaps(x, y) for y in p) for x in g)
            c[3] += sum(any(_overlaps(y, x) for x in g) for y in p)
            c[4] += sum(
                any((x.type, x.begin, x.end) == (y.type, y.begin, y.end) for y in p) for x in g
            )
    return {t: Scores(*c) for t, c in counts.items()}


def char_recall(pairs: Iterable[tuple[Sequence[PiiEntity], Sequence[PiiEntity]]]) -> float:
    """Share of gold characters inside some prediction of any type: what scrubbing needs."""
    total = covered = 0
    for gold, predicted in pairs:
        for g in gold:
            for i in range(g.begin, g.end):
                total += 1
                covered += any(p.begin <= i < p.end for p in predicted)
    return covered / total if total else 1.0

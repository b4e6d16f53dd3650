"""Synthetic but realistic agent memory for benchmarks: runs of six kinds of work, their
episodes (summary, findings, message units), RunFinished events, and embedders that cost nothing.

Texts are drawn from per-topic templates with their slots filled at random (companies, clauses,
services, amounts, error codes), so vocabulary, lengths and lexical overlap look like real agent
runs. Vectors are built from a *pool* of sentences embedded once (by the real local model, or by
any embedder): a unit's vector is the normalised mean of its sentences' vectors plus a little
noise, so similarities keep the model's structure without embedding hundreds of thousands of
texts. The 1,024-dimension space is a fixed random projection of the 384-dimension one (cosines
are nearly preserved, Johnson-Lindenstrauss), since no local 1,024-dimension model ships.

Distributions (stated in every result file): topics weighted 35/20/15/12/10/8%; outcomes
COMPLETED 75%, PARTIAL 15%, FAILED 10%; created uniformly over the last 80 days; per run
10-30 human/AI messages (uniform; the first is the task) and 1-3 findings, each a unit; an AI
message is 1-3 sentences.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from agent_memory.core.model.models import Episode, EpisodeUnit, Outcome
from agent_memory.core.model.policies import DAY
from agent_memory.core.ports import Embedder
from agent_memory.core.retrieval import vectors

FloatArray = npt.NDArray[np.float32]

TENANT = "acme"
AGENT = "analyst"
TOPIC_WEIGHTS = (0.35, 0.20, 0.15, 0.12, 0.10, 0.08)
OUTCOMES: tuple[tuple[Outcome, float], ...] = (
    ("COMPLETED", 0.75),
    ("PARTIAL", 0.15),
    ("FAILED", 0.10),
)
MESSAGES_PER_RUN = (10, 30)
FINDINGS_PER_RUN = (1, 3)
SENTENCES_PER_AI_MESSAGE = (1, 3)
HISTORY_DAYS = 80.0
# Norm of the noise added to each composed vector: distinct vectors, cosine to the base ~0.995.
NOISE_NORM = 0.1

COMPANIES = (
    "Northwind Traders", "Contoso", "Fabrikam", "Tailspin Toys", "Adventure Works", "Litware",
    "Wingtip Toys", "Woodgrove Bank", "Proseware", "Alpine Ski House", "Coho Winery",
    "Fourth Coffee", "Lucerne Publishing", "Margie's Travel", "Trey Research",
    "Wide World Importers", "Blue Yonder Airlines", "City Power & Light",
    "Graphic Design Institute", "Humongous Insurance",
)  # fmt: skip
PEOPLE = (
    ("Jane", "Doe"), ("Carlos", "Ramirez"), ("Priya", "Natarajan"), ("Tom", "Becker"),
    ("Aisha", "Okafor"), ("Mei", "Chen"), ("Lars", "Johansson"), ("Fatima", "Haddad"),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Topic:
    """One kind of work an agent does: its templates and slot values."""

    task_type: str
    domain: str
    tasks: tuple[str, ...]
    summaries: tuple[str, ...]
    human: tuple[str, ...]
    ai: tuple[str, ...]
    findings: tuple[str, ...]
    facts: tuple[str, ...]
    steps: tuple[str, ...]
    tools: tuple[str, ...]
    slots: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


TOPICS: tuple[Topic, ...] = (
    Topic(
        task_type="contract_review",
        domain="contract_law",
        tasks=(
            "Review the {company} {doc} for liability and indemnity risk.",
            "Check the {company} {doc} renewal terms before signature.",
            "Compare the {company} {doc} against our standard playbook.",
            "Flag unusual clauses in the {company} {doc} draft from legal.",
        ),
        summaries=(
            "Reviewed the {company} {doc} for liability risk; the cap is {ratio}x annual fees.",
            "Checked the {company} {doc} renewal: auto-renews for {n} months unless notice.",
            "Compared the {company} {doc} with the playbook; {n} deviations in {clause}.",
            "Flagged the {company} {doc} draft: {clause} shifts data-breach costs to us.",
        ),
        human=(
            "Please review the {company} {doc} and summarise the risks.",
            "Legal wants the {company} {doc} back by {day}; focus on {clause}.",
            "Is the liability cap in the {company} {doc} acceptable?",
            "What does {clause} of the {company} {doc} say about termination?",
            "Can you compare this {doc} with the one we signed last year?",
        ),
        ai=(
            "Searching the {doc} for the limitation of liability clause.",
            "Clause {clause} caps liability at {ratio}x annual fees, below the 1x market norm.",
            "The indemnity in {clause} excludes open-source components and third-party data.",
            "Termination for convenience needs {n} days notice, longer than our standard 30.",
            "The {company} {doc} auto-renews for {n} months; notice must be given in writing.",
            "I found {n} deviations from the playbook, most of them in {clause}.",
            "Data-breach costs are carved out of the cap, which is unusual for a {doc}.",
            "The governing law is {law}, and disputes go to arbitration in {city}.",
            "Payment terms are net {n}; late fees accrue at {pct}% per month.",
            "The warranty period is {n} months and covers defects in workmanship only.",
        ),
        findings=(
            "Clause {clause} caps liability at {ratio}x annual fees.",
            "The {doc} auto-renews for {n} months without a notice reminder.",
            "IP indemnity in {clause} excludes open-source components.",
            "Termination for convenience requires {n} days notice.",
        ),
        facts=(
            "A liability cap below 1x annual fees is a red flag in vendor MSAs.",
            "Auto-renewal clauses should be paired with a notice reminder.",
            "IP indemnities in SaaS agreements often exclude open-source components.",
            "Data-breach costs carved out of the liability cap need legal sign-off.",
        ),
        steps=(
            "Locate the limitation-of-liability clause and read its carve-outs.",
            "Compare the liability cap with annual fees; flag anything below 1x.",
            "Check indemnities for IP infringement and data breaches.",
            "Check renewal and termination notice periods.",
            "Summarise the risks by severity with clause references.",
        ),
        tools=("clause_search", "playbook_lookup", "redline_diff"),
        slots={
            "doc": ("MSA", "SaaS agreement", "NDA", "DPA", "SOW", "reseller agreement"),
            "clause": ("7.3", "9.1", "12.4", "4.2", "14.1", "8.5"),
            "law": ("New York law", "English law", "Delaware law", "German law"),
        },
    ),
    Topic(
        task_type="incident_response",
        domain="sre",
        tasks=(
            "Investigate the {service} outage reported at {time} UTC.",
            "Find why {service} p99 latency doubled after the last deploy.",
            "Triage the {error} errors from {service} in {region}.",
            "Write the postmortem for the {service} incident on {day}.",
        ),
        summaries=(
            "Investigated the {service} outage: {cause}; mitigated by rolling back.",
            "{service} latency regression traced to {cause} after deploy {build}.",
            "Triaged {error} errors from {service} in {region}; root cause was {cause}.",
            "Wrote the {service} postmortem; {n} action items, the main one on {cause}.",
        ),
        human=(
            "{service} is down in {region}, can you look?",
            "Pager fired for {service} at {time}; error rate is {pct}%.",
            "Did the deploy {build} change anything in {service}?",
            "Please draft the postmortem timeline for {service}.",
            "Customers report {error} from {service}; is it related?",
        ),
        ai=(
            "Checking the {service} dashboards for the last {n} hours.",
            "Error rate on {service} jumped to {pct}% at {time} UTC in {region}.",
            "The logs show {error} from the connection pool starting right after deploy {build}.",
            "Root cause looks like {cause}.",
            "Rolling back {service} to the previous build restored the error rate to baseline.",
            "The {service} pods were restarted {n} times by the liveness probe.",
            "Latency p99 went from 180 ms to {n}0 ms on {service} after the config change.",
            "No alerts fired for the disk on {service} because the threshold was {pct}%.",
            "I opened a ticket to add a canary stage for {service} deploys.",
            "Traffic was shifted away from {region} while the fix was verified.",
        ),
        findings=(
            "{service} failed because of {cause}.",
            "Deploy {build} of {service} had no canary stage.",
            "The liveness probe on {service} restarted pods during slow starts.",
            "Alert thresholds on {service} were too loose to catch {error}.",
        ),
        facts=(
            "A missing environment variable is the most common cause of failed deploys.",
            "Rollbacks should be tried before debugging when error rates spike after a deploy.",
            "Liveness probes with short timeouts restart pods that are only slow to start.",
            "Connection pool exhaustion shows up as timeouts before it shows up as errors.",
            "Outages and latency regressions right after a deploy are fixed fastest by a rollback.",
        ),
        steps=(
            "Check dashboards and recent deploys for the affected service.",
            "Roll back if the error rate rose right after a deploy.",
            "Read logs around the first error for the root cause.",
            "Write the timeline and action items into the postmortem.",
        ),
        tools=("log_search", "metrics_query", "deploy_history", "pager"),
        slots={
            "service": ("payments-api", "checkout", "auth-service", "search-indexer", "gateway"),
            "error": ("HTTP 503", "timeout", "OOMKilled", "TLS handshake", "HTTP 429"),
            "region": ("eu-west-1", "us-east-1", "ap-southeast-2", "us-west-2"),
            "cause": (
                "a missing DATABASE_URL environment variable",
                "connection pool exhaustion",
                "an expired TLS certificate",
                "a memory leak in the cache layer",
                "a bad feature flag rollout",
            ),
        },
    ),
    Topic(
        task_type="data_pipeline",
        domain="data_engineering",
        tasks=(
            "Fix the nightly {pipeline} job that failed on {day}.",
            "Backfill {table} for the last {n} days after the schema change.",
            "Find why row counts in {table} dropped by {pct}%.",
            "Speed up the {pipeline} DAG; it now takes {n} hours.",
        ),
        summaries=(
            "Fixed the {pipeline} job: {cause}; rerun succeeded.",
            "Backfilled {table} for {n} days; {pct}% of partitions had late data.",
            "Row-count drop in {table} came from {cause}.",
            "Cut the {pipeline} DAG runtime from {n} hours by partition pruning.",
        ),
        human=(
            "The {pipeline} job failed again last night.",
            "Can you backfill {table} from the raw bucket?",
            "Row counts in {table} look wrong for {day}.",
            "Why is the {pipeline} DAG so slow lately?",
        ),
        ai=(
            "The {pipeline} task failed with a schema mismatch on column {column}.",
            "Partition {day} of {table} has {pct}% fewer rows than the 7-day average.",
            "The upstream export changed {column} from integer to string.",
            "Root cause: {cause}.",
            "I reran the {pipeline} job for {day} and row counts match the source now.",
            "Partition pruning on {column} skips {pct}% of the files scanned.",
            "The backfill wrote {n} partitions of {table} without duplicates.",
            "Late-arriving data lands up to {n} hours after the partition closes.",
        ),
        findings=(
            "{table} row drop was caused by {cause}.",
            "The {pipeline} DAG scans every partition unless {column} is filtered.",
            "Upstream changed the type of {column} without notice.",
        ),
        facts=(
            "Schema changes upstream are the main cause of nightly pipeline failures.",
            "Backfills must be idempotent per partition to be rerun safely.",
            "Partition pruning needs the partition column in the filter, not a derived one.",
            "When a nightly job fails or row counts drop, look for an upstream schema change.",
        ),
        steps=(
            "Read the failed task's log for the first error.",
            "Compare the source schema with the table schema.",
            "Rerun the affected partitions and compare row counts.",
        ),
        tools=("sql_runner", "dag_inspector", "schema_diff"),
        slots={
            "pipeline": ("orders_daily", "events_ingest", "billing_export", "crm_sync"),
            "table": ("fact_orders", "dim_customers", "events_raw", "invoices"),
            "column": ("customer_id", "event_ts", "amount_cents", "region_code"),
            "cause": (
                "a schema change upstream",
                "late-arriving files",
                "a timezone bug in the partition key",
                "duplicate rows from a retried export",
            ),
        },
    ),
    Topic(
        task_type="code_review",
        domain="software",
        tasks=(
            "Review pull request #{pr} in the {repo} repository.",
            "Check the {repo} change for thread-safety problems.",
            "Review the database migration in PR #{pr}.",
        ),
        summaries=(
            "Reviewed PR #{pr} in {repo}: {n} comments, one blocking on {issue}.",
            "Checked {repo} for thread safety; {issue} in the cache wrapper.",
            "Reviewed the migration in PR #{pr}; it locks {table} for {n} minutes.",
        ),
        human=(
            "Can you review PR #{pr} before I merge?",
            "Is the new cache in {repo} thread-safe?",
            "The migration in PR #{pr} touches {table}; is it safe online?",
        ),
        ai=(
            "The change in {repo} adds {n} lines and touches the request handler.",
            "There is {issue} in the new code path.",
            "The migration adds a column with a default, which rewrites {table}.",
            "Tests cover the happy path but not the timeout branch.",
            "I suggest moving the lock acquisition outside the loop.",
            "The new dependency pins version {n}.2 which has a known CVE.",
        ),
        findings=(
            "PR #{pr} has {issue}.",
            "The migration rewrites {table} and needs a batched backfill.",
            "Timeout handling in {repo} is untested.",
        ),
        facts=(
            "Adding a column with a default rewrites the whole table on older Postgres versions.",
            "Shared caches without locks cause lost updates under concurrency.",
            "Review pull requests for thread safety and for migrations that lock large tables.",
        ),
        steps=(
            "Read the description and the tests first.",
            "Check concurrency and error paths.",
            "Check migrations for table rewrites and locks.",
        ),
        tools=("diff_viewer", "test_runner", "dependency_audit"),
        slots={
            "repo": ("billing-service", "web-frontend", "ml-platform", "mobile-api"),
            "issue": (
                "a race condition",
                "a missing null check",
                "an N+1 query",
                "a leaked file handle",
            ),
            "table": ("orders", "users", "payments", "sessions"),
        },
    ),
    Topic(
        task_type="customer_support",
        domain="support",
        tasks=(
            "Answer the ticket from {company} about {problem}.",
            "Escalate the {company} complaint about {problem} if needed.",
            "Summarise this week's tickets about {problem}.",
        ),
        summaries=(
            "Answered {company}'s ticket on {problem}; resolved with a {fix}.",
            "Escalated {company}'s complaint about {problem} to tier 2.",
            "Summarised {n} tickets on {problem}; most resolved by a {fix}.",
        ),
        human=(
            "New ticket from {company}: they report {problem}.",
            "{company} is unhappy about {problem}; should we escalate?",
            "How many tickets this week were about {problem}?",
        ),
        ai=(
            "The customer's account shows {problem} since {day}.",
            "A {fix} resolved this for {n} similar tickets last month.",
            "I drafted a reply explaining the {fix} and apologising for the delay.",
            "The SLA for {company} is {n} hours for priority tickets.",
            "This looks like a known issue tracked in ticket {build}.",
        ),
        findings=(
            "{problem} is usually fixed by a {fix}.",
            "{company} has a {n}-hour SLA on priority tickets.",
        ),
        facts=(
            "Most login problems are resolved by a password reset link.",
            "Refunds above the threshold need a manager's approval.",
            "Customer tickets about login failures or double billing usually have a known fix.",
        ),
        steps=(
            "Check the account and its recent tickets.",
            "Apply the known fix if one matches.",
            "Escalate when the SLA is at risk.",
        ),
        tools=("ticket_search", "account_lookup", "kb_search"),
        slots={
            "problem": ("login failures", "double billing", "missing invoices", "slow exports"),
            "fix": ("password reset link", "refund", "cache purge", "plan migration"),
        },
    ),
    Topic(
        task_type="financial_analysis",
        domain="finance",
        tasks=(
            "Analyse {company}'s Q{q} results against the forecast.",
            "Explain the variance in {account} for Q{q}.",
            "Prepare the board summary of Q{q} revenue.",
        ),
        summaries=(
            "Analysed {company} Q{q}: revenue {pct}% over forecast, margin down on {account}.",
            "The Q{q} variance in {account} came from {cause}.",
            "Prepared the Q{q} board summary; ARR grew {pct}%.",
        ),
        human=(
            "Can you look at {company}'s Q{q} numbers?",
            "Why is {account} over budget in Q{q}?",
            "Board deck needs the revenue summary by {day}.",
        ),
        ai=(
            "Revenue for Q{q} was {pct}% above the forecast.",
            "{account} is over budget because of {cause}.",
            "Gross margin fell {n} points, mostly from {account}.",
            "ARR grew {pct}% quarter over quarter.",
            "The forecast assumed {n} new enterprise deals; {q} closed.",
        ),
        findings=(
            "{account} variance in Q{q} came from {cause}.",
            "Gross margin fell {n} points in Q{q}.",
        ),
        facts=(
            "Cloud costs grow faster than revenue when reserved capacity lapses.",
            "Deferred revenue explains most gaps between bookings and recognised revenue.",
            "Quarterly results above forecast can still hide a margin drop in a single account.",
        ),
        steps=(
            "Pull actuals and forecast for the quarter.",
            "Explain every variance above 5% by account.",
            "Summarise for the board with one chart per metric.",
        ),
        tools=("ledger_query", "spreadsheet", "chart_builder"),
        slots={
            "account": ("cloud hosting", "contractor spend", "marketing", "travel"),
            "cause": ("lapsed reserved instances", "a one-off license renewal", "currency effects"),
        },
    ),
)

_SHARED_SLOTS: dict[str, tuple[str, ...]] = {
    "company": COMPANIES,
    "day": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "March 3", "June 14"),
    "city": ("London", "Singapore", "New York", "Zurich"),
}
_SLOT = re.compile(r"\{(\w+)\}")


def fill(template: str, rng: random.Random, topic: Topic) -> str:
    """The template with every ``{slot}`` replaced by a random value of the topic or a number."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        choices = topic.slots.get(name) or _SHARED_SLOTS.get(name)
        if choices:
            return rng.choice(choices)
        return _number(name, rng)

    return _SLOT.sub(value, template)


def _number(name: str, rng: random.Random) -> str:
    if name == "ratio":
        return rng.choice(("0.25", "0.5", "0.75", "1", "1.5", "2"))
    if name == "pct":
        return str(rng.randint(2, 60))
    if name == "q":
        return str(rng.randint(1, 4))
    if name == "time":
        return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"
    if name == "build":
        return f"{rng.randint(1000, 9999)}-{rng.choice('abcdef')}{rng.randint(10, 99)}"
    if name == "pr":
        return str(rng.randint(100, 9999))
    return str(rng.randint(2, 90))


# ---------------------------------------------------------------------------- sentence pool


@dataclass(frozen=True, slots=True)
class SentencePool:
    """Filled template sentences per topic and kind, each with its embedding (one row each)."""

    texts: tuple[str, ...]
    topic_of: npt.NDArray[np.int32]
    kind_of: tuple[str, ...]
    vectors: FloatArray
    model_id: str
    by_topic_kind: Mapping[tuple[int, str], npt.NDArray[np.int32]]
    queries: tuple[tuple[int, str], ...]

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        return int(self.vectors.shape[1])

    def vector_of(self) -> dict[str, FloatArray]:
        """Text to vector, for an embedder that answers from precomputed vectors."""
        return {text: self.vectors[i] for i, text in enumerate(self.texts)}

    def projected(self, dimension: int, *, seed: int = 1024) -> SentencePool:
        """The same pool in a ``dimension``-dim space: a fixed Gaussian projection, normalised."""
        rng = np.random.default_rng(seed)
        matrix = rng.standard_normal((self.dimension, dimension)).astype(np.float32)
        return SentencePool(
            texts=self.texts,
            topic_of=self.topic_of,
            kind_of=self.kind_of,
            vectors=normalise(self.vectors @ matrix),
            model_id=f"{self.model_id}+projected-{dimension}",
            by_topic_kind=self.by_topic_kind,
            queries=self.queries,
        )


POOL_SIZES: dict[str, int] = {
    "task": 12,
    "summary": 40,
    "human": 40,
    "ai": 160,
    "finding": 60,
}


def pool_texts(seed: int = 7, sizes: Mapping[str, int] = POOL_SIZES) -> list[tuple[int, str, str]]:
    """``(topic, kind, text)`` of every pool sentence: distinct fills of each topic's templates,
    plus the topics' facts and procedure steps verbatim.
    """
    rng = random.Random(seed)
    rows: list[tuple[int, str, str]] = []
    for t, topic in enumerate(TOPICS):
        templates = {
            "task": topic.tasks,
            "summary": topic.summaries,
            "human": topic.human,
            "ai": topic.ai,
            "finding": topic.findings,
        }
        for kind, count in sizes.items():
            seen: set[str] = set()
            attempts = 0
            while len(seen) < count and attempts < count * 20:
                attempts += 1
                seen.add(fill(rng.choice(templates[kind]), rng, topic))
            rows.extend((t, kind, text) for text in sorted(seen))
        rows.extend((t, "fact", text) for text in topic.facts)
        rows.extend((t, "step", text) for text in topic.steps)
    return rows


def build_pool(
    embedder: Embedder, *, seed: int = 7, sizes: Mapping[str, int] = POOL_SIZES
) -> SentencePool:
    """Embed the pool sentences once with ``embedder``."""
    rows = pool_texts(seed, sizes)
    texts = tuple(text for _, _, text in rows)
    topic_of = np.array([t for t, _, _ in rows], dtype=np.int32)
    kind_of = tuple(kind for _, kind, _ in rows)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, (t, kind, _) in enumerate(rows):
        groups.setdefault((t, kind), []).append(i)
    return SentencePool(
        texts=texts,
        topic_of=topic_of,
        kind_of=kind_of,
        vectors=np.asarray(embedder.embed_documents(list(texts)), dtype=np.float32),
        model_id=embedder.model_id,
        by_topic_kind={k: np.array(v, dtype=np.int32) for k, v in groups.items()},
        queries=tuple((t, text) for t, kind, text in rows if kind == "task"),
    )


def normalise(matrix: npt.NDArray[np.floating[Any]]) -> FloatArray:
    """Rows scaled to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    result: FloatArray = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return result


# ---------------------------------------------------------------------------- episodes


@dataclass(frozen=True, slots=True)
class EpisodeSet:
    """Synthetic episodes of one agent, with their summary vectors as a float32 matrix."""

    episodes: list[Episode]
    summary_vectors: FloatArray
    texts: list[str]

    @property
    def unit_count(self) -> int:
        """Units over all episodes."""
        return sum(len(e.units) for e in self.episodes)


class EpisodeFactory:
    """Builds realistic episodes from a pool; deterministic for a seed."""

    def __init__(self, pool: SentencePool, *, seed: int = 11, now: float) -> None:
        self.pool = pool
        self.now = now
        self._rng = random.Random(seed)
        self._np = np.random.default_rng(seed)

    def episodes(self, count: int, *, with_units: bool = True) -> EpisodeSet:
        """``count`` episodes of agent ``AGENT`` of tenant ``TENANT``, newest last."""
        ages = sorted(
            (self._rng.uniform(0, HISTORY_DAYS * DAY) for _ in range(count)), reverse=True
        )
        episodes, summaries, texts = [], [], []
        for i, age in enumerate(ages):
            episode, vector, text = self.episode(i, self.now - age, with_units=with_units)
            episodes.append(episode)
            summaries.append(vector)
            texts.append(text)
        matrix = (
            np.stack(summaries) if summaries else np.zeros((0, self.pool.dimension), np.float32)
        )
        return EpisodeSet(episodes, matrix, texts)

    def episode(
        self, number: int, created: float, *, with_units: bool = True
    ) -> tuple[Episode, FloatArray, str]:
        """One episode, its summary vector (float32) and its embedded text."""
        rng = self._rng
        t = rng.choices(range(len(TOPICS)), weights=TOPIC_WEIGHTS)[0]
        topic = TOPICS[t]
        outcome = rng.choices([o for o, _ in OUTCOMES], weights=[w for _, w in OUTCOMES])[0]
        task_id = self._pick(t, "task")
        summary_id = self._pick(t, "summary")
        finding_ids = [self._pick(t, "finding") for _ in range(rng.randint(*FINDINGS_PER_RUN))]
        run_id = f"run-{number:07d}"
        summary = f"{self.pool.texts[summary_id]} (ref {run_id})"
        findings = tuple(self.pool.texts[f] for f in finding_ids)
        text = " ".join([summary, *findings])
        vector = self._compose([summary_id, *finding_ids])
        units: tuple[EpisodeUnit, ...] = ()
        if with_units:
            units = self._units(t, task_id, finding_ids)
        episode = Episode(
            tenant_id=TENANT,
            agent_id=AGENT,
            run_id=run_id,
            task=self.pool.texts[task_id],
            task_summary=summary,
            outcome=outcome,
            created_at=created,
            expires_at=float(np.ceil(created + 90 * DAY)),
            task_type=topic.task_type,
            domain=topic.domain,
            key_findings=findings,
            approach_used=" then ".join(topic.steps[:2]),
            tools_used=tuple(rng.sample(topic.tools, k=min(2, len(topic.tools)))),
            reusable_patterns=(topic.steps[0],),
            embedding=vectors.encode(vector, self.pool.model_id),
            units=units,
        )
        return episode, vector, text

    def _units(self, t: int, task_id: int, finding_ids: list[int]) -> tuple[EpisodeUnit, ...]:
        rng = self._rng
        parts: list[tuple[str, str, list[int]]] = [("message", "human", [task_id])]
        for seq in range(1, rng.randint(*MESSAGES_PER_RUN)):
            if seq % 2:
                count = rng.randint(*SENTENCES_PER_AI_MESSAGE)
                parts.append(("message", "ai", [self._pick(t, "ai") for _ in range(count)]))
            else:
                parts.append(("message", "human", [self._pick(t, "human")]))
        parts += [("finding", "", [f]) for f in finding_ids]
        vecs = self._compose_many([ids for _, _, ids in parts])
        units = []
        finding_seq = 0
        for i, ((kind, speaker, ids), vector) in enumerate(zip(parts, vecs, strict=True)):
            text = " ".join(self.pool.texts[j] for j in ids)
            seq = i if kind == "message" else finding_seq
            finding_seq += kind == "finding"
            units.append(
                EpisodeUnit(
                    kind="message" if kind == "message" else "finding",
                    seq=seq,
                    text=text,
                    speaker=speaker or None,
                    embedding=vectors.encode(vector, self.pool.model_id),
                )
            )
        return tuple(units)

    def _pick(self, t: int, kind: str) -> int:
        ids = self.pool.by_topic_kind[(t, kind)]
        return int(ids[self._rng.randrange(len(ids))])

    def _compose(self, ids: Sequence[int]) -> FloatArray:
        vector: FloatArray = self._compose_many([ids])[0]
        return vector

    def _compose_many(self, groups: Sequence[Sequence[int]]) -> FloatArray:
        """Normalised mean of each group's pool vectors, plus noise of norm ``NOISE_NORM``."""
        dim = self.pool.dimension
        base = np.stack([self.pool.vectors[list(ids)].mean(axis=0) for ids in groups])
        noise = self._np.standard_normal((len(groups), dim)).astype(np.float32)
        noise *= NOISE_NORM / np.sqrt(dim)
        return normalise(normalise(base) + noise)


# ---------------------------------------------------------------------------- events


def run_event(
    number: int, rng: random.Random, *, tenant: str = TENANT, agent: str = AGENT
) -> dict[str, Any]:
    """A realistic RunFinished event with messages, tool calls, artifacts and some PII."""
    t = rng.choices(range(len(TOPICS)), weights=TOPIC_WEIGHTS)[0]
    topic = TOPICS[t]
    outcome = rng.choices([o for o, _ in OUTCOMES], weights=[w for _, w in OUTCOMES])[0]
    task = fill(rng.choice(topic.tasks), rng, topic)
    first, last = rng.choice(PEOPLE)
    email = f"{first.lower()}.{last.lower()}@{rng.choice(('example.com', 'example.org'))}"
    phone = f"415-555-{rng.randint(1000, 9999)}"
    messages: list[dict[str, Any]] = [
        {"role": "human", "content": f"{task} Ask {first} {last} ({email}) if unclear."}
    ]
    for seq in range(1, rng.randint(*MESSAGES_PER_RUN)):
        if seq % 2 == 0:
            messages.append({"role": "human", "content": fill(rng.choice(topic.human), rng, topic)})
            continue
        sentences = [
            fill(rng.choice(topic.ai), rng, topic)
            for _ in range(rng.randint(*SENTENCES_PER_AI_MESSAGE))
        ]
        if rng.random() < 0.3:
            call = f"call-{seq}"
            tool = rng.choice(topic.tools)
            messages.append({"role": "ai", "content": " ".join(sentences), "tool_calls": [call]})
            messages.append(
                {
                    "role": "tool",
                    "name": tool,
                    "tool_call_id": call,
                    "content": fill(rng.choice(topic.ai), rng, topic)
                    + f" Owner: {first} {last}, {phone}.",
                }
            )
        else:
            messages.append({"role": "ai", "content": " ".join(sentences)})
    findings = [
        fill(rng.choice(topic.findings), rng, topic) for _ in range(rng.randint(*FINDINGS_PER_RUN))
    ]
    artifacts: dict[str, Any] = {
        "task_summary": fill(rng.choice(topic.summaries), rng, topic) + f" Contact: {email}.",
        "outcome": outcome,
        "key_findings": findings,
        "approach_used": " Then ".join(topic.steps[:3]),
        "tools_used": list(rng.sample(topic.tools, k=min(2, len(topic.tools)))),
        "reusable_patterns": [topic.steps[0]],
        "facts": [
            {"content": fact, "confidence": round(rng.uniform(0.72, 0.97), 2)}
            for fact in rng.sample(topic.facts, k=min(2, len(topic.facts)))
        ],
    }
    if outcome == "COMPLETED":
        artifacts["procedure"] = {
            "title": f"{topic.task_type} checklist",
            "steps": list(topic.steps),
        }
    return {
        "tenant_id": tenant,
        "agent_id": agent,
        "run_id": f"run-{number:07d}",
        "task": task,
        "task_type": topic.task_type,
        "domain": topic.domain,
        "outcome": outcome,
        "messages": messages,
        "artifacts": artifacts,
    }


# ---------------------------------------------------------------------------- embedders


class PrecomputedEmbedder:
    """An ``Embedder`` answering from a table of precomputed vectors: model time excluded.

    A text not in the table is embedded by ``fallback`` once and remembered (counted in
    ``misses``), or raises ``KeyError`` without a fallback.
    """

    def __init__(
        self,
        table: Mapping[str, FloatArray],
        *,
        model_id: str,
        dimension: int,
        fallback: Embedder | None = None,
    ) -> None:
        self._table = dict(table)
        self._model_id = model_id
        self._dimension = dimension
        self._fallback = fallback
        self.misses = 0

    @property
    def model_id(self) -> str:
        """The vector space of the table."""
        return self._model_id

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """Table rows of ``texts``; shape ``(len(texts), dimension)``."""
        if not texts:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.stack([self.embed_query(text) for text in texts])

    def embed_query(self, text: str) -> FloatArray:
        """The table row of ``text``."""
        found = self._table.get(text)
        if found is not None:
            return found
        self.misses += 1
        if self._fallback is None:
            raise KeyError(f"no precomputed vector for {text[:60]!r}")
        vector = self._fallback.embed_query(text)
        self._table[text] = vector
        return vector


_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """A fast fake model: words hashed into signed buckets, L2-normalised (shared words give a
    positive cosine). Microseconds per text, so consolidation can be timed without a model.
    """

    def __init__(self, dimension: int = 384, model_id: str = "bench-hashing-384") -> None:
        self._dimension = dimension
        self._model_id = model_id
        self._buckets: dict[str, tuple[int, float]] = {}

    @property
    def model_id(self) -> str:
        """Identifies this fake space."""
        return self._model_id

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        return self._dimension

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """One vector per text."""
        matrix = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                bucket, sign = self._bucket(word)
                matrix[row, bucket] += sign
        return normalise(matrix)

    def embed_query(self, text: str) -> FloatArray:
        """One vector."""
        vector: FloatArray = self.embed_documents([text])[0]
        return vector

    def _bucket(self, word: str) -> tuple[int, float]:
        found = self._buckets.get(word)
        if found is None:
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            found = (
                int.from_bytes(digest[:4], "little") % self._dimension,
                1.0 if digest[4] & 1 else -1.0,
            )
            self._buckets[word] = found
        return found

"""Word lists the name recogniser consults, loaded once and shared read-only between threads.

Person names come from the US census 1990 lists shipped in the ``names`` package (public-domain
data, MIT-licensed package) plus a hand-written supplement; common English words come from SCOWL
up to its spell-checking size (``data/words-*.txt``); place names from GeoNames
(``data/places-*.txt``). The lists are written by the generators in ``tools/pii_lists/``.
"""

from __future__ import annotations

import builtins
import keyword
import threading
import unicodedata
from dataclasses import dataclass
from importlib import resources

from agent_memory.adapters.local.pii import _given_names, _world_names
from agent_memory.adapters.local.pii.lists import read_list

_CENSUS_FILES = {
    "first": ("dist.male.first", "dist.female.first"),
    "last": ("dist.all.last",),
}


def words(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``."""
    return frozenset(text.split())


def phrases(text: str) -> frozenset[str]:
    """The ``|``-separated entries of ``text``, each with its whitespace made single spaces."""
    return frozenset(" ".join(e.split()) for e in text.split("|")) - {""}


# Courtesy titles and their abbreviations: whatever capitalised word follows is a name.
COURTESY_TITLES = words(
    """
    mr mrs ms miss mx dr prof sir dame mme mlle madame monsieur herr frau senor senora sra srta
    dona rev fr hon capt col lt sgt cmdr adm gen maj sen rep gov
    sig sigra sigg dott dottssa ing avv pani bayan
    """
)
# Titles that are also ordinary words ("General Public"): the next word must look like a name.
RANK_TITLES = words(
    """
    doctor professor reverend father sister lord lady judge justice captain colonel lieutenant
    sergeant commander admiral general major president senator representative governor mayor
    ambassador chancellor rabbi imam pastor sheikh aunt uncle honorable honourable
    """
)
TITLES = COURTESY_TITLES | RANK_TITLES

# A following capitalised run is taken as a name when its words are not ordinary English words.
STRONG_CUES = words("dear attn attention cc bcc hi hello hey dearest starring adim зовут")
STRONG_CUE_PHRASES = frozenset(
    {
        "signed by",
        "prepared by",
        "reviewed by",
        "approved by",
        "authored by",
        "written by",
        "submitted by",
        "drafted by",
        "countersigned by",
        "witnessed by",
        "requested by",
        "name is",
        "name was",
        "names are",
        "calls me",
        "call me",
        "called me",
        "directed by",
        "performed by",
        "sung by",
        "known as",
        "named him",
        "named her",
        "named them",
        "i am",
        "this is",
        "im",
        # "My name is" and "I am called" in other languages (folded: "heiße" -> "heisse").
        "me llamo",
        "nombre es",
        "je mappelle",
        "ich heisse",
        "name ist",
        "mi chiamo",
        "nome e",
        "me chamo",
        "naam is",
        "heet ik",
        "nazywam sie",
        "benim adim",
        "меня зовут",
    }
)
# These also precede organisations ("spoke to Microsoft"): the run must contain a known name.
WEAK_CUE_PHRASES = frozenset(
    {
        "spoke with",
        "spoke to",
        "speak with",
        "speak to",
        "talked to",
        "talked with",
        "met with",
        "meeting with",
        "call with",
        "thanks to",
        "thank you",
        "according to",
        "on behalf of",
        "assigned to",
    }
)
# Field labels ("Name: Jane Roe"), matched with a colon after them.
LABEL_CUES = words(
    """
    name names from to cc bcc contact contacts attendee attendees author owner reviewer approver
    signatory witness employee assignee sender recipient signed signature by
    patient tenant landlord borrower guarantor beneficiary representative rep poc
    """
)
# Weaker cues: the run must also contain a known name.
WEAK_CUES = words("from by to with per named")
# Words after a capitalised word at the start of a sentence that make it a person's subject:
# "Quellington is from", "Okonkwo spent a year". Only for a word that is a listed name or no English
# word at all; an ordinary word opening a sentence ("Click is") is not taken.
SUBJECT_VERBS = words(
    """
    is was has had spent spends lives lived live works worked joined left went goes wants wanted
    needs needed loves loved hates hated knows knew met meets says said just will would can could
    did does didnt doesnt isnt wasnt hasnt cant wont got gets took takes gave gives made makes
    came comes sent sends called calls moved moves became becomes listed lists told tells wrote
    writes thinks thought likes liked seems seemed looks looked tried tries started starts
    """
)
# Words before a capitalised word that make it a thing, a company or a place: "at Globex",
# "the Quorvex", "using Ruff". After them a lone word needs a stronger cue to be a name.
THING_DETERMINERS = words(
    """
    a an the this that these those its our their your my his her of at for from on in into onto
    via using use uses used run runs install installs import imports like than as per
    """
)
# Verbs of addressing someone: after them even a given name that is also a word ("ring Bob")
# counts, unless it is among the most common words ("call Will").
ADDRESS_VERBS = words(
    """
    contact contacted ask asked ping pinged tell told thank thanks email emailed call called ring
    rang phone phoned text texted message messaged cc invite invited meet met introduce
    introduced remind reminded
    """
)
# Words after a run that make it a person: "Okonkwo said".
SPEECH_VERBS = words(
    """
    said says wrote writes told tells asked asks replied replies explained explains mentioned
    mentions thinks thought believes believed feels felt recalled recalls argued argues insisted
    insists complained complains
    """
)
ACTION_VERBS = words(
    """
    confirmed confirms noted notes suggested suggests agreed agrees signed signs approved approves
    emailed emails called calls requested requests flagged flags stated states added adds
    reported reports proposed proposes reviewed reviews countersigned objected objects
    """
)
# Job titles after a comma or in brackets: "Jane Roe, CFO" or "Jane Roe (Head of Legal)".
JOB_WORDS = words(
    """
    ceo cfo coo cto cio ciso cmo cpo vp svp evp gc director manager head counsel partner associate
    paralegal engineer analyst officer president chair chairman chairwoman chairperson founder
    cofounder attorney lawyer solicitor barrister esq secretary treasurer consultant advisor
    adviser specialist lead architect controller accountant auditor clerk assistant intern
    """
)
# Capitalised contract and business vocabulary that SCOWL's common levels do not cover.
DOMAIN_WORDS = words(
    """
    counterparty counterparties licensor licensors licensee licensees indemnification indemnitee
    indemnitor governance escrow subcontractor subcontractors subprocessor subprocessors
    remediation deliverable deliverables majeure onboarding offboarding sublicense redline
    redlines signatory signatories assignee assignor lessor lessee payee payor obligor obligee
    addendum annex recital recitals schedule exhibit appendix clause clauses section sections
    article articles party parties vendor vendors supplier suppliers customer customers buyer
    seller client clients agreement contract order statement services service master terms term
    liability cap indemnity warranty termination confidentiality law effective date notice
    procurement legal finance compliance security privacy support sales marketing engineering
    operations treasury audit risk board management team department office desk helpdesk
    saas paas iaas api sla sow msa nda dpa gdpr ccpa hipaa kpi okr roi ebitda faq
    website fax tel telephone mobile cell email url homepage dob ssn zip postcode wilful
    wilfully maiden asap iban swift bic
    bot bots chatbot user users agent agents human ai assistant operator moderator admin
    """
)
# Software vocabulary SCOWL's levels lack (or that the census lists took out of them): in
# technical prose these open sentences and headings as often as names do.
TECH_WORDS = words(
    """
    unicode ascii utf schema schemas metadata validator validators validation median lint linter
    linters linting git github gitlab json yaml toml xml html css http https url urls uri api
    apis sdk sdks cli gui regex async await backend frontend middleware plugin plugins runtime
    runtimes config configs dataset datasets dataframe dataframes docstring docstrings changelog
    readme quickstart toolkit workflow workflows webhook webhooks endpoint endpoints namespace
    namespaces boolean booleans integer integers tuple tuples enum enums iterator iterators
    serializer serializers deserializer parser parsers tokenizer tokenizers encoder decoder
    codec codecs mixin mixins subclass subclasses superclass metaclass decorator decorators
    callback callbacks coroutine coroutines thread threads threading multiprocessing subprocess
    stdin stdout stderr unittest pytest pypi pip conda virtualenv venv wheel wheels setuptools
    repo repos monorepo commit commits rebase merge changeset diff patch patches hotfix
    benchmark benchmarks profiler profiling debugger debug logging logger loggers telemetry
    tracing metrics dashboard dashboards powertools serverless lambda lambdas container
    containers cluster clusters node nodes kernel kernels compiler compilers interpreter
    bytecode opcode cython numba jit wasm javascript typescript python rust golang java kotlin
    scala haskell lua perl ruby php sql nosql orm graphql grpc protobuf websocket websockets
    oauth jwt saml sso ldap tls ssl ssh cert certs encryption decryption hash hashing checksum
    cache caching cached proxy proxies router routers scheduler queue queues broker brokers
    stream streams streaming pipeline pipelines tensor tensors embedding embeddings vector
    vectors inference tokenization quantization finetuning checkpoint checkpoints
    typing typed untyped annotations annotation dataclass dataclasses pydantic mypy ruff
    flake pylint autocomplete tooltip tooltips sidebar navbar checkbox dropdown widget widgets
    localhost hostname username usernames filename filenames filepath pathname dirname
    login logins logout signup signin backup backups restore failover uptime downtime
    timestamp timestamps timezone timezones datetime unix posix macos linux windows
    docs download downloads helper helpers iterable iterables inf nan xcode click rust
    deploy deploys deployed deploying deployment deployments redeploy rollback rollbacks
    """
)
# Python's keywords and built-in names: in source code "elif" and "max" are no given names.
CODE_WORDS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
MONTHS_AND_DAYS = words(
    """
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun christmas easter
    thanksgiving halloween hanukkah chanukah diwali ramadan eid passover kwanzaa
    """
)
# Places and brands spelt like given names; they count as names only beside other name words.
PLACES_AND_BRANDS = words(
    """
    alabama alaska arizona arkansas california carolina colorado connecticut dakota delaware
    florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland
    massachusetts michigan minnesota mississippi missouri montana nebraska nevada jersey mexico
    ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington wisconsin
    wyoming austin dallas houston jackson madison charlotte savannah phoenix aurora orlando
    sydney florence victoria adelaide regina beverly chelsea camden lincoln denver boston
    cleveland memphis nashville raleigh columbus richmond tampa miami atlanta brooklyn berkeley
    jordan chad china india kenya israel france germany italy spain england ireland scotland
    wales london paris berlin milan rome vienna geneva zurich dublin lyon santiago lucia
    africa asia europe america american alexa siri cortana mercedes tesla dell chanel tiffany
    wendy porsche ferrari harley toyota honda lexus jaguar cadillac chevrolet chevy claude
    """
)
# Companies, products and brands that are not English words: never part of a person's name.
BRANDS = words(
    """
    microsoft google alphabet amazon aws azure apple facebook instagram whatsapp linkedin youtube
    oracle ibm intel nvidia amd qualcomm salesforce adobe cisco vmware sap siemens samsung sony
    huawei xiaomi lenovo netflix spotify uber airbnb paypal stripe visa mastercard amex twitter
    tiktok github gitlab atlassian jira slack zoom dropbox shopify okta datadog snowflake databricks
    anthropic openai chatgpt copilot kubernetes docker terraform postgres postgresql mysql sqlite
    redis mongodb kafka elasticsearch nginx linux ubuntu debian windows macos ios android
    accenture deloitte kpmg pwc mckinsey bcg barclays hsbc citi citigroup jpmorgan ubs
    nestle unilever pfizer novartis roche bayer basf volkswagen bmw audi nissan hyundai kia
    walmart costco ikea boeing airbus verizon vodafone comcast docusign nike adidas gatorade
    starbucks mcdonalds
    """
)
# Companies named after people, written as people are: never a person in running text.
COMPANY_NAMES = phrases(
    """
    charles schwab|morgan stanley|goldman sachs|wells fargo|merrill lynch|berkshire hathaway|
    wolters kluwer|dow jones|ernst young|johnson johnson|procter gamble|estee lauder|
    ralph lauren|calvin klein|tommy hilfiger|hugo boss|louis vuitton|john deere|walt disney|
    lockheed martin|kaiser permanente|booz allen hamilton|booz allen|hewlett packard|
    bristol myers squibb|eli lilly|sherwin williams|marks spencer|dolce gabbana|
    harley davidson|rolls royce|mercedes benz|arthur andersen|baker mckenzie|
    clifford chance|allen overy|linklaters|freshfields|skadden|latham watkins|
    jones day|white case|kirkland ellis|sullivan cromwell|cravath|wachtell|davis polk|
    paul weiss|simpson thacher|morgan lewis|norton rose|herbert smith|dentons|
    standard chartered|lloyds|charles river|thomson reuters|pitney bowes|
    jack daniels|ben jerrys|mary kay|martha stewart|tim hortons|wendys|
    """
)
# Words of a journey before a city that is also a name: "a trip to Barcelona", "moving to
# Melbourne", "flew from Kent". After a plain "to", "in" or "back from" a person fits as well.
PLACE_CUE_PHRASES = frozenset(
    f"{verb} {prep}"
    for verb in """
    trip trips travel travels traveled travelled traveling travelling move moves moved moving
    relocate relocated relocating fly flies flew flying flight flights drive drives drove
    driving road journey
    """.split()
    for prep in ("to", "from")
)
# Words that make the capitalised words before them a place or a venue, not a person ("Ross
# Lake", "Tybee Island", "Dipsea Trail", "Glen Canyon", "Augusta National"). "Park" only after
# two words: alone after one it is as often a surname ("Sean Park").
PLACE_TAILS = words(
    """
    trail trails trailhead lake lakes beach beaches island islands isle valley mountain
    mountains canyon canyons falls river creek glacier volcano forest desert peninsula reef
    lagoon gorge peak peaks hills springs harbor harbour coast cove waterfall cave caves
    reserve sanctuary wilderness preserve national airport station mall zoo museum cathedral
    palace castle bridge tower gardens plaza square
    """
)
# Multi-word places whose words look like names ("San Jose", "St. Louis").
PLACE_HEADS = words(
    "san santa st saint los las fort port mount mt lake new north south east west санкт нижнии"
)
ORG_SUFFIXES = words(
    """
    inc corp corporation co company llc llp lp ltd limited plc gmbh ag sa sas sarl srl bv nv oy
    ab asa pty pte kk kg group holdings partners associates bank capital ventures technologies
    tech labs systems solutions consulting foundation institute university college school
    hospital clinic trust fund agency authority ministry council industries enterprises
    international global motors airlines insurance investments orchestra band ensemble choir
    studio studios records press media publishing pharmaceuticals therapeutics networks
    traders trading
    """
)
PARTICLES = words(
    "van von der den de del della di da du la le dos das bin binti ibn al el ter ten y"
)
NAME_SUFFIXES = words("jr sr ii iii iv phd md esq")
# Titles written after a name (Turkish): the words before them are a name.
TITLES_AFTER = words("bey hanim efendi")
# Greetings and exclamations that open a sentence before a name: "Yeah, Maria", "Cool John".
INTERJECTIONS = words(
    """
    hi hey hello yeah yep yes no nope ok okay cool wow woah whoa aww aw yum congrats
    congratulations bye goodbye cheers thanks thank anytime woohoo yay yo oh ah hmm sure great
    nice awesome sorry please welcome morning evening night lol haha omg ugh cmon
    gotta gonna wanna kinda sorta dunno lemme gimme yup yea yeh yah nah naw oof ouch oops
    whoops mm mmm hm hmmm uh um umm er eh huh aha wow yikes yall btw imo imho tbh fyi idk
    thx ty np omw brb ttyl xoxo veggies
    """
)
# Nationalities and languages: capitalised, and some are census names ("German").
NATIONALITIES = words(
    """
    american british english german french irish italian spanish portuguese dutch belgian swiss
    austrian swedish norwegian danish finnish polish czech russian ukrainian greek turkish
    chinese japanese korean indian pakistani vietnamese thai filipino indonesian australian
    canadian mexican brazilian argentine nigerian kenyan african european asian latin arabic
    hebrew hindi urdu bengali persian scottish welsh
    """
)
# Census first names that are usually something else when capitalised.
NOT_GIVEN_NAMES = words("an in so my see ha man many else numbers manual loan brain angle")
# Census first names that are also less common English words or product names: they count as
# names only beside other name words.
AMBIGUOUS_GIVEN_NAMES = words(
    """
    aide abbey angelic aura barb basil bee berry blanch blossom brandy brook brooks bud buddy
    bunny buster camellia candy caprice cherish cherry chastity chi chin christen clay coral coy
    curt destiny diamond dick dimple dung earnest ebony emerald fawn fern flora foster gala gale
    garland garnet genesis genie ginger heath herb homer hue hunter ivory jade jewel karma lacy
    lien lore ma magnolia maple marina marine marvel maxima mi misty newton nova omega opal pa
    pansy pasty ping pinkie princess prudence raven reed ruby sage sari shin sierra sparkle
    stormy tad tanner tawny tequila tiara valentine velvet viola wan willow windy yen ada
    """
)


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Lowercase, accent-stripped word sets."""

    first_names: frozenset[str]
    last_names: frozenset[str]
    common_10: frozenset[str]
    common_20: frozenset[str]
    words_35: frozenset[str]
    words_60: frozenset[str]
    proper_words: frozenset[str]  # "hawaiian", "buddhist": capitalised words, not names
    places: frozenset[str]  # folded city, country and state names, words joined by a space
    countries: frozenset[str]
    frequent_names: frozenset[str] = frozenset()  # given names and surnames of many people

    def is_frequent_name(self, word: str) -> bool:
        """A given name or surname borne by many people: kept a name though a word of some
        language ("Rosa", "Blanco", "Pierre").
        """
        return word in self.frequent_names

    def is_common(self, word: str) -> bool:
        """True for the ~11,000 most common English words (SCOWL sizes 10 and 20)."""
        return word in self.common_10 or word in self.common_20

    def is_english(self, word: str) -> bool:
        """True for any listed English word or a plain inflection of one."""
        if (
            self.is_common(word)
            or word in self.words_35
            or word in self.words_60
            or word in DOMAIN_WORDS
            or word in TECH_WORDS
        ):
            return True
        return any(
            stem in self.common_10
            or stem in self.common_20
            or stem in self.words_35
            or stem in self.words_60
            for spelling in (word, *_american(word), *_unprefixed(word))
            for stem in (spelling, *stems(spelling))
        )


_STEM_RULES = (
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ed", ""),
    ("ed", "e"),
    ("ing", ""),
    ("ing", "e"),
    ("ly", ""),
    ("er", ""),
    ("ers", ""),
)


# British spellings of words the (American) lists hold: "summarise", "colour", "centre",
# "licence", "catalogue", "analyse", "cancelled" are ordinary words, not names.
_BRITISH = (
    ("isation", "ization"),
    ("ise", "ize"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ising", "izing"),
    ("yse", "yze"),
    ("ysed", "yzed"),
    ("ysing", "yzing"),
    ("our", "or"),
    ("ours", "ors"),
    ("tre", "ter"),
    ("tres", "ters"),
    ("ence", "ense"),
    ("ogue", "og"),
    ("lled", "led"),
    ("lling", "ling"),
)


# A word made of a common prefix and an English word is an English word ("subprocessor",
# "multitenant", "preapproved"); the rest must be a word of 5 letters or more on its own.
_PREFIXES = (
    "sub",
    "pre",
    "non",
    "multi",
    "inter",
    "over",
    "under",
    "auto",
    "micro",
    "macro",
    "post",
    "anti",
    "super",
    "cross",
    "counter",
    "semi",
    "mis",
    "out",
    "re",
    "un",
)


def _unprefixed(word: str) -> list[str]:
    return [
        word[len(prefix) :].removeprefix("-")
        for prefix in _PREFIXES
        if word.startswith(prefix) and len(word) - len(prefix) >= 5
    ]


def _american(word: str) -> list[str]:
    return [
        word[: -len(suffix)] + replacement
        for suffix, replacement in _BRITISH
        if word.endswith(suffix) and len(word) - len(suffix) >= 3
    ]


def stems(word: str) -> list[str]:
    """What ``word`` may be an inflection of, one suffix taken off: "wraps" -> ["wrap"]."""
    return [
        word[: -len(suffix)] + replacement
        for suffix, replacement in _STEM_RULES
        if word.endswith(suffix) and len(word) - len(suffix) >= 3
    ]


def fold(word: str) -> str:
    """Lowercase without accents, apostrophes or dots: "O'Néil" -> "oneil"."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_UNDECOMPOSED))
    kept = (c for c in decomposed if not unicodedata.combining(c) and c not in "'’.")
    return "".join(kept).casefold()


# Letters with a stroke or no dot, which Unicode does not decompose: "Yılmaz", "Wałęsa".
_UNDECOMPOSED = str.maketrans("ıłŁøØđĐ", "ilLoOdD")


def read_census(kind: str, *, min_percent: float = 0.0) -> frozenset[str]:
    """The census names of ``kind`` ("first" or "last"), lowercase; with ``min_percent``, only
    those the census gives at least that share of people (its files print 3 decimals of a %).
    """
    package = resources.files("names")
    found: set[str] = set()
    for name in _CENSUS_FILES[kind]:
        for line in package.joinpath(name).read_text(encoding="ascii").splitlines():
            fields = line.split()
            if fields and float(fields[1]) >= min_percent:
                found.add(fields[0].lower())
    return frozenset(found)


# Shares of people (the census prints 3 decimals of a %) above which a name stays a name though
# it is also a word of another language.
FREQUENT_GIVEN_PERCENT = 0.01
FREQUENT_SURNAME_PERCENT = 0.001

_lock = threading.Lock()
_loaded: Lexicon | None = None


def load() -> Lexicon:
    """The shared lexicon, read from disk on first use (about 50 ms)."""
    global _loaded
    with _lock:
        if _loaded is None:
            _loaded = Lexicon(
                first_names=(
                    read_census("first")
                    | words(_given_names.GIVEN_NAMES)
                    | {fold(w) for w in _world_names.CYRILLIC_GIVEN_NAMES.split()}
                )
                - NOT_GIVEN_NAMES,
                last_names=read_census("last") | words(_given_names.SURNAMES),
                common_10=words(read_list("words-level-10")),
                common_20=words(read_list("words-level-20")),
                words_35=words(read_list("words-level-35")),
                words_60=words(read_list("words-level-60")),
                proper_words=words(read_list("words-proper-60")),
                places=phrases(read_list("places-cities")) | phrases(read_list("places-countries")),
                countries=phrases(read_list("places-countries")),
                frequent_names=read_census("first", min_percent=FREQUENT_GIVEN_PERCENT)
                | read_census("last", min_percent=FREQUENT_SURNAME_PERCENT)
                | words(_given_names.GIVEN_NAMES)
                | words(_given_names.SURNAMES)
                | {fold(w) for w in _world_names.CYRILLIC_GIVEN_NAMES.split()},
            )
        return _loaded

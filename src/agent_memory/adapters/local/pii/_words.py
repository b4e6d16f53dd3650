"""Common English words, from SCOWL (Spell Checker Oriented Word Lists) 2020.12.07.

Generated, not hand-edited: lowercase alphabetic entries of the ``english-words`` and
``american-words`` lists. ``LEVEL_10`` and ``LEVEL_20`` are the most common words (SCOWL size 10,
and size 20 minus size 10); ``LEVEL_35`` is size 35 minus the census name lists and minus
inflections of words already listed (callers strip -s, -es, -ed, -ing, -ly, -er before looking up).

SCOWL is Copyright 2000-2011 Kevin Atkinson. Permission to use, copy, modify, distribute and sell
these word lists, the associated scripts, the output created from the scripts, and its
documentation for any purpose is hereby granted without fee, provided that the above copyright
notice appears in all copies and that both that copyright notice and this permission notice
appear in supporting documentation. Kevin Atkinson makes no representations about the
suitability of this array for any purpose. It is provided "as is" without express or implied
warranty.
"""

LEVEL_10 = """
a abilities ability able about above absence absolute absolutely abuse academic accept acceptable
accepted accepting accepts access accessible accident accidental accidentally accord accorded
according accordingly accords account accounts accuracy accurate achieve achieved achieves
achieving acquire acquired acquires acquiring across act acted acting action actions active
activities activity acts actual actually add added adding addition additional address addressed
addresses addressing adds adequate adjust administration admit admits admitted admittedly admitting
adopt adopted adopting adopts advance advanced advances advancing advantage advantages advertise
advertised advertises advertising advice advise advised advises advising affair affairs affect
affected affecting affects afford afraid after afternoon afterward afterwards again against age
agency ages ago agree agreed agreeing agreement agrees ahead aid aim aimed aiming aims air alarm
album algorithm algorithms alias alive all allow allowed allowing allows almost alone along already
also alter altered altering alternate alternative alternatively alternatives alters although
altogether always am ambiguous among amount amounts amuse amused amuses amusing an analog analogue
analysis ancient and angle angry animal announce announcement annoy annoyed annoying annoys annual
anonymous another answer answered answering answers any anybody anyone anyplace anything anyway
anywhere apart apologies apologize apology apparent apparently appeal appear appearance appeared
appearing appears apple application applications applied applies apply applying appreciate
appreciated appreciates appreciating approach appropriate approval approve approved approves
approving arbitrary are area areas argue argued argues arguing argument arguments arise arises
arithmetic arm army around arrange arranged arrangement arrangements arranges arranging arrive
arrived arrives arriving art article articles artificial artist as aside ask asked asking asks
asleep aspect aspects assembler assembly assistant associate associated associates associating
association assume assumed assumes assuming assumption assure assured assures assuring at ate
atmosphere attach attached attaching attack attempt attempted attempting attempts attend attended
attending attends attention attitude attract attractive audience author authorities authority
authors automatic automatically automobile autumn available average avoid avoided avoiding avoids
awake award aware away awful awkward back backed background backing backs backwards bad badly
balance ball ban band bank bar bars base based bases basic basically basing basis battery be bear
bearing bears beautiful became because become becomes becoming bed been before beforehand began
begin beginning begins begun behalf behave behavior behind being believe believed believes
believing belong belongs below benefit benefits besides best bet bets better betting between beyond
bid bidding bids big bigger biggest bill binary bind binding binds biology bit bite bites biting
bits bitten bizarre black blame blank block blow blue board boards boat bodies body book books boot
bore borne borrow borrowed borrowing borrows both bother bothered bothering bothers bottle bottom
bought bound box boxes boy bracket brackets branch branches brand breach break breaking breaks
bridge brief briefly bright bring bringing brings broadcast broadcasting broadcasts broke broken
brother brought brown bucket budget buffer bug bugs build building buildings builds built bulk
bulletin buried buries bury burying bus business busy but button buy buying buys by byte bytes
calculate calculation calculations call called calling calls came campaign can candidate cannot
capable capacity capital captain car card cardboard cards care careful carefully cares carried
carries carry carrying case cases cassette cat catalog catch catches catching categories category
caught cause caused causes causing cease cell cent center central century certain certainly chain
chair chairman chance chances change changed changes changing channel channels chaos chapter char
character characters charge charged charges charging chars cheap cheaper cheapest check checked
checking checks chemical child children chip chips choice choose chooses choosing chose chosen
church circle circuit circulation circumstance circumstances citizen city claim claimed claiming
claims clarify class classes clean clear cleared clearer clearest clearing clearly clears clever
clock close closed closely closer closes closest closing club clue code coded codes coding coffee
cold collapse collect collected collecting collection collects college colleges color colors column
combination combinations combine combined combines combining come comes coming command commands
comment commented commenting comments commercial commission commitment committee common commonly
communicate communication communications community company comparable comparatively compare
compared compares comparing comparison compatibility compatible competition compiler complain
complained complaining complains complaint complaints complete completed completely completes
completing complex complexity complicate complicated complicates complicating component components
compose composed composes composing composition comprehensive compromise compulsory compute
computed computer computers computes computing concept concern concerned concerning concerns
conclusion concrete condition conditions conference confident confirm confirmed confirming confirms
confuse confused confuses confusing confusion connect connected connecting connection connections
connects consequence consequences consequently consider considerable considerably consideration
considered considering considers consist consistency consistent consists constant constraint
constraints construct consumption contact contain contained containing contains content contents
context continually continuation continue continued continues continuing continuous continuously
contract contrary contrast contribute contribution contributions control controlled controlling
controls convenient convention conventional conventions conversation convert convince convinced
convinces convincing cope copied copies copy copying core corner corners correct corrected
correcting correction correctly corrects corrupt corrupted corrupting corrupts cost costing costs
could council count counted counter counting country counts county couple course courses court
cover covered covering covers crash crashed crashes crashing crazy create created creates creating
creation creature credit crisis crisp crisps critical criticism cross cry cs culture cumming cums
cup cure curious current currently cursor customer cut cuts cutting cycle cycles daily damage
damaged damages damaging danger dangerous dare dark data database date dated dates dating datum day
days dead deal dealing deals dealt dear death debate decade decent decide decided decides deciding
decision decisions declare declared declares declaring decrease dedicate dedicated dedicates
dedicating deduce deem deemed deeming deems deep deeply default defense define defined defines
defining definite definitely definition definitions definitive degree degrees delay delete deleted
deletes deleting deliberate deliberately deliver delivered delivering delivers delivery demand
demands democratic demonstrate demonstration department depend depended depending depends depth
derive derived derives deriving describe described describes describing description descriptions
design designed designing designs desirable desire desired desires desiring desk desperate despite
destroy destroyed destroying destroys detail detailed detailing details detect detected detecting
detects determine determined determines determining develop developed developing development
develops device devices devote devoted devotes devoting dictionary did die died dies differ
difference differences different differently difficult difficulties difficulty digit digital digits
dinner direct directed directing direction directions directly director directory directs dirty
disadvantage disagree disappear disappeared disappearing disappears disaster disc discipline
discount discourage discouraged discourages discouraging discover discovered discovering discovers
discs discuss discussed discusses discussing discussion discussions disk dislike display displayed
displaying displays distance distant distinct distinction distinctly distinguish distribute
distributed distributes distributing distribution district disturb disturbed disturbing disturbs
ditto divide divided divides dividing division do document documentation documented documenting
documents doe does dog doing dollar domain done door doors double doubt doubtful down dozen dozens
drastic draw drawing drawn draws dream drew drink drive driven driver drivers drives driving drop
dropped dropping drops drove dry dubious due dumb dump during duty dying each earlier earliest
early earth ease easier easiest easily east easy eat eaten eating eats economic economy edge edit
edited editing edition editor editors edits education educational effect effective effectively
effects efficient effort efforts eight either elect elected electing election electric electronic
electronics elects element elements elevator else elsewhere embarrass embarrassed embarrasses
embarrassing emergency emphasis employee empty enable enables encounter encountered encountering
encounters encourage encouraged encourages encouraging end ended ending ends enemy engineer
engineered engineering engineers enjoy enormous enough ensure ensured ensures ensuring enter
entered entering enters entire entirely entitle entitled entitles entitling entity entrance entries
entry environment equal equally equipment equivalent eraser err error errors escape especially
essential essentially establish established establishes establishing establishment estimate even
evened evening evenings evens event events eventually ever every everybody everyone everything
everywhere evidence exact exactly examine examined examines examining example examples excellent
except exception exceptions excess excessive exchange exclude excluded excludes excluding exclusive
excuse execute executed executes executing exercise exist existed existence existing exists expand
expanded expanding expands expansion expect expected expecting expects expense expensive experience
experienced experiences experiencing experiment experimental experiments expert experts explain
explained explaining explains explanation explicit express expressed expresses expressing
expression extend extended extending extends extension extensive extent external extra extract
extreme extremely eye eyes face facilities facility fact factor factors facts fail failed failing
fails failure fair fairly faith fall fallen falling falls false familiar family famous fan fancy
far farm farther farthest fashion fast faster fastest fatal fate father fault faults favor favorite
fear feasible feature features fed federal feed feedback feeding feeds feel feeling feels feet fell
felt few fewer fewest field fields fight figure figures file filed files filing fill filled filling
fills film final finally financial find finding finds fine finger fingers finish finished finishes
finishing finite fire firm firmly first firstly fiscal fish fishes fit fits fitted fitting five fix
fixed fixes fixing flag flash flashed flashes flashing flat flavor flew flexible flied flies flight
float floated floating floats floor flow flown fly flying folk folks follow followed following
follows food foot for force forced forces forcing foreign forever forget forgets forgetting forgot
forgotten form formal format formed former forming forms forth forthcoming fortunately fortune
forward found four fourth fraction frame free freedom freely french frequent frequently fresh
friend friendly friends fries from front fry full fully fun function functions fund fundamental
fundamentally funds funny further furthest future gain gained gaining gains game games gap garbage
garden gas gasoline gather gave general generally generate generated generates generating
generation genuine get gets getting girl give given gives giving glad glass global go goes going
gone good goods got gotten government governor gradually graduate grand grands grant granted
granting grants graph graphic graphics grateful grave gray great greater greatest greatly green
grew grind grinding grinds gross grosses ground grounds group groups grow growing grown grows
growth guarantee guaranteed guaranteeing guarantees guard guess guessed guesses guessing guide gun
guy habit habits hack had hair half hall hand handed handing handle handled handles handling hands
handy hang hanged hanging hangs happen happened happening happens happily happy hard harder hardest
hardly hardware harm harmful harmless has hat hate have having he head headed header heading heads
health healthy hear heard hearing hears heart heat heavily heavy held hell hello help helped
helpful helping helps hence her here hereby herself hes hid hidden hide hides hiding high higher
highest highly hill him himself hint hints his historical history hit hits hitting hold holding
holds hole holes holiday holidays home honest hope hoped hopefully hopes hoping horrible horse
horses hospital host hot hotel hour hours house how however huge human hundred hundreds hung hunt
hurry husband ice idea ideal ideas identical identify identity if ignore ignored ignores ignoring
ill illegal image images imagination imagine immediate immediately impact implement implemented
implementing implements implication implications implied implies imply implying importance
important importantly impose imposed imposes imposing impossible impression improve improved
improvement improvements improves improving in inability inadequate inch inches incident
incidentally incline inclined inclines inclining include included includes including income
incompatible incomplete inconsistent inconvenience incorrect increase increased increases
increasing indeed independent independently index indicate indicates indication individual
individually individuals industrial industry inevitably inferior infinite influence info inform
information informed informing informs initial initially initials inner innocent input inputs
inputted inputting insert inserted inserting inserts inside insist insisted insisting insists
install installed installing installs instance instant instantly instead institution institutions
instruction instructions insurance integer integers integral intelligence intelligent intend
intended intending intends intention interact interest interested interesting interests interface
internal international interpret interpretation interpreted interpreting interprets interval
intervals intervention into introduce introduced introduces introducing introduction invalid
invariably invent invented inventing invents investigate invisible invitation invite invited
invites inviting involve involved involves involving irrelevant irritate irritated irritates
irritating is isolate isolated isolates isolating issue issued issues issuing it item items its
itself job jobs join joined joining joins joint joke joy judge judgment jump jumps junk just
justification justified justifies justify justifying keen keep keeping keeps kept key keyboard keys
kid kill killed killing kills kind kindly kinds king knew knock knocked knocking knocks know
knowing knowledge known knows label labeled labeling labels labor laboratory lack lacked lacking
lacks ladies lady lain land landed landing lands language languages large largely larger largest
last lasts late later latest latter law laws lay layout lazy leach lead leaded leader leading leads
leaf learn learned learning learns least leave leaved leaves leaving lecture lectures led left leg
legal legally legs lend length less lesser lesson lessons let lets letter letters letting level
levels liable libraries library lie lied lies life lifetime lift light lights like liked likely
likes likewise liking limit limited limiting limits line linear lines link linked linking links
list listed listen listing lists literally literature little live lived lives living load loaded
loading loads loan local location locations lock locked locking locks log logged logging logic
logical logs long longer longest look looked looking looks loop loose lorries lorry lose loses
losing loss lost lot lots loudly love low lower lowest luck lucky lunch lying machine machines mad
made magic magnetic magnitude mail main mainly maintain maintained maintaining maintains major
majority make makes making man manage managed manager manages managing manipulation manner manual
manuals many map march mark marked market marking marks marriage marry mass massive master match
matches material materials mathematical mathematics matter matters maximum may maybe me mean
meaning meaningful meaningless meanings means meant measure measured measures measuring mechanic
mechanics mechanism media medical medium mediums meet meeting meetings meets member members
membership memory men mention mentioned mentioning mentions mere merely merit merits mess message
messages messy met metal method methods middle midnight might mile miles military million millions
mind minded minding minds mine minimal minimum minor minority minute minutes mislead misleading
misleads misled miss missed misses missing mistake mistaken mistakes mistaking mistook
misunderstand misunderstanding misunderstands misunderstood misuse mix mixed mixes mixing mod mode
model models modern modified modifies modify modifying moment money monitor month months moral more
morning mornings most mostly mother motion mouth move moved movement movements moves movie moving
much multiple music must my myself mysterious naive name named namely names naming nasty nation
national natural naturally nature naughty near nearby nearer nearest nearly necessarily necessary
necessity neck need needed needing needs negative neither nervous net network networks never
nevertheless new news next nice nicer nicest night nine no nobody noise noisy none nonsense nor
normal normally north not note noted notes nothing notice noticed notices noticing notify noting
novel now nowadays nowhere numb number numbers numbest numerical numerous obey object objected
objecting objection objections objects obscure observation observe observed observes observing
obtain obtained obtaining obtains obvious obviously occasion occasional occasionally occasions
occupied occupies occupy occupying occur occurred occurring occurs odd odds of off offer offered
offering offers office officer offices official often oh oil old older oldest omit omits omitted
omitting on once one ones only onto open opened opening opens operate operated operates operating
operation operations operator operators opinion opinions opportunities opportunity oppose opposed
opposes opposing opposite opposition option optional options or order ordered ordering orders
ordinary organization organize organized organizes organizing origin original originally other
others otherwise ought our ours ourselves out outer output outside over overall owe owed owes owing
own owner owners pack package packages packet page pages paid pain painful pair pairs paper papers
paragraph parallel parent park part partial partially particular particularly parties partly parts
party pass passed passes passing past patch path patient pattern patterns pause pay payed paying
pays peace peak peculiar pen people per perfect perfectly perform performance performed performing
performs perhaps period permanent permanently permission permit permits permitted permitting person
personal personally persons persuade persuaded persuades persuading petrol phase phenomenon
philosophy phone phrase phrases physical pi pick picked picking picks picture pictures piece pieces
pile pint pipe place placed places placing plain plan plane planet planned planning plans plant
plastic play played playing plays plea pleasant please pleased pleases pleasing plenty plot plots
plug plus pocket poem poet point pointed pointing pointless points police policies policy political
poll pool poor pop popular population port position positions positive possibilities possibility
possible possibly post posted posting postmaster posts potential potentially pound pounds power
powerful powers practical practically practice precise precisely prefer preferable preferably
preference preferred preferring prefers preparation prepare prepared prepares preparing presence
present presented presenting presents preserve president press pressed presses pressing pressure
presumably presume pretty prevent prevented preventing prevents previous previously price prices
primary prime primitive principle principles print printed printer printers printing printout
prints prior private probably problem problems procedure process processed processes processing
processor processors produce produced produces producing product production products professional
program programmed programmer programmers programming programs progress project projects promise
promised promises promising prompt promptly prone proof proper properly properties property
proportion proposal propose proposed proposes proposing prospect protect protected protecting
protection protects protest prove proved proves provide provided provides providing proving public
publication publicity publicly publish published publishes publishing pull pulled pulling pulls
punctuation puncture purchase pure purely purpose purposes push pushed pushes pushing put puts putt
putted putting putts qualified qualifies qualify qualifying quality quantities quantity quarter
question questions queue quick quicker quickest quickly quiet quietly quit quite quits quitting
quote quoted quotes quoting race radio rain raise raised raises raising ran random randomly range
rapid rapidly rare rarely rate rates rather raw re reach reached reaches reaching react reaction
read readable reader readers readily reading reads ready real reality realize realized realizes
realizing really reason reasonable reasonably reasons recall receive received receives receiving
recent recently reception recognition recognize recognized recognizes recognizing recommend
recommendation recommended recommending recommends record recorded recording records recover
recovered recovering recovers red reduce reduced reduces reducing reduction redundant refer
reference references referred referring refers reflect reflected reflecting reflection reflects
refuse refused refuses refusing regard regarded regarding regardless regards region register
registered registering registers regret regular regularly regulation regulations reject rejected
rejecting rejects relate related relates relating relation relationship relative relatively release
released releases releasing relevance relevant reliable religion religious reluctant rely remain
remained remaining remains remark remarks remember remembered remembering remembers remind reminded
reminding reminds remote remotely removal remove removed removes removing repair repeat repeated
repeatedly repeating repeats replace replaced replacement replaces replacing replied replies reply
replying report reported reporting reports represent representation representative represented
representing represents reproduce request requested requesting requests require required
requirement requirements requires requiring research reserve reserved reserves reserving resident
resolution resort resource resources respect respectively respects respond response responses
responsibility responsible rest restart restore restored restores restoring restrict restricted
restricting restricts result resulted resulting results retain return returned returning returns
reveal revealed revealing reveals reverse review rewrite rid ridding ride ridiculous rids right
rights ring rise risk river road role roll room rooms root rough roughly round route routine row
rubber rubbish rule rules rumor run running runs rush sad sadly safe safely safer safest safety
said saint sake sale sales same sample sat satisfied satisfies satisfy satisfying save saved saves
saving saw say saying says scale scan scene scheme school schools science sciences scientific score
scores scrap scratch screen screens script search searched searches searching season second
secondary secondly seconds secret secretary section sections secure security see seeing seek
seeking seeks seem seemed seeming seems seen sees select selected selecting selection selects self
sell selling sells seminar send sending sends senior sense sensible sensibly sensitive sent
sentence sentences separate separately sequence sequences serial series serious seriously serve
served server serves service services serving session sessions set sets setting settle settled
settles settling seven several severe severely sex shall shame shape share shared shares sharing
sharp she sheet shelf shell shift ship shoot shop shopped shopping shops short shortage shorter
shortest shortly should show showed showing shown shows shut shuts shutting side sides sight sign
signal signals signed significance significant significantly signing signs silly similar similarly
simple simpler simplest simply simultaneous simultaneously since sincerely single sit site sites
sits sitting situation situations six size sizes skill skills sleep slight slightly slip slow
slower slowest slowly small smaller smallest smile smooth so social society soft software sold
solely solid solution solutions solve solved solves solving some somebody somehow someone someplace
something sometime sometimes somewhat somewhere son soon sooner soonest sophisticate sophisticated
sophisticates sophisticating sorry sort sorted sorting sorts sought sound sounded sounding sounds
source sources south southern space spaces spare speak speaker speakers speaking speaks special
specially specific specifically specified specifies specify specifying speech speed spell spelled
spelling spells spend spending spends spent spirit spite split splits splitting spoke spoken spot
spots spotted spotting spread spreading spreads spring square stable staff stage stages stand
standard standards standing stands start started starting starts state stated statement statements
states stating station stations statistic statistical statistics status stay stayed staying stays
steal step stick sticking sticks still stock stone stones stood stop stopped stopping stops storage
store stored stores storing story straight straightforward strange strategy stream street strength
strict strictly strike strikes striking string strings strong strongly struck structure structures
stuck student students studied studies study studying stuff stupid style subject subjects submit
submits submitted submitting subsequent subset substantial substitute subtle succeed success
successful successfully such sudden suddenly suffer suffered suffering suffers suffice sufficient
sufficiently sugar suggest suggested suggesting suggestion suggestions suggests suit suitable
suitably suited suiting suits sum summary summer sun superior supervisor supplied supplies supply
supplying support supported supporting supports suppose supposed supposedly supposes supposing sure
surely surface surprise surprised surprises surprising survey survive survived survives surviving
suspect suspected suspecting suspects suspend suspended suspending suspends suspicion switch
switched switches switching symbol symbols syntax system systems table tables take taken takes
taking talk talked talking talks tank tanks tape tapes target task tasks taste taught tax tea teach
teacher teaches teaching team technical technique techniques technology tedious teeth telephone
television tell telling tells temperature temporarily temporary ten tend tendency tends term
terminal terminals terminology terms terribly test tested testing tests text than thank thanks that
the their them themselves then theoretical theory there thereby therefore these they thin thing
things think thinking thinks third this thoroughly those though thought thoughts thousand thousands
threat three threw through throughout throw throwing thrown throws thus ticket tickets tie tied
ties tight till time timed times timing tin title titles to today together token told tomorrow
tonight too took tooth top topic topics total totally touch touched touches touching toward towards
town trace track tracks traditional traffic train trained training trains transfer transferred
transferring transfers translate translated translates translating translation transport trap
trapped trapping traps trash travel treat treated treating treatment treats tree trees trial trick
tried tries trip trivial trouble truck trucks true truly trunk trust trusted trusting trusts truth
try trying tune turn turned turning turns twelve twenty twice two tying type typed types typical
typing ugly ultimate ultimately unable unacceptable unaware uncertain unclear under undergraduate
undergraduates underneath understand understanding understands understood unfortunate unfortunately
unhappy uniform unique unit unite units universal universities university unknown unless unlike
unlikely unlimited unnecessarily unnecessary unpleasant unreasonable unsuitable until unusual
unwanted up update updated updates updating upon upper upset upsets upsetting upwards us usage use
used useful useless user users uses using usual usually utility utterly vacation vacations vague
vaguely valid validity valuable value values van vans variable variables variation varied varies
variety various vary varying vast vastly vector version versions very via vice video view views
virtually virtue visible vision visit vital voice volume vote votes wait waited waiting waits walk
walked walking walks wall walls want wanted wanting wants war warm warn warned warning warns was
wash waste wasted wastes wasting watch watched watches watching water way ways we weapon wear
wearing wears weather week weekend weeks weight weird welcome welcomed welcomes welcoming well went
were west western what whatever whatsoever wheel wheels when whenever where whereas whereby
wherever whether which while whilst white who whoever whole whom whose why wide widely wider
widespread widest wife wild will willed willing wills win wind window windows wine winning wins
winter wire wise wish wished wishes wishing with withdraw within without woman women won wonder
wondered wonderful wondering wonders wooden word worded wording words wore work worked worker
workers working works world worn worried worries worry worrying worse worst worth worthwhile worthy
would write writer writes writing written wrong wrote year years yellow yes yesterday yet you young
your yours yourself zero
"""

LEVEL_20 = """
aardvark abandon abandoned abandoning abandons abbreviate abbreviated abbreviates abbreviating
abbreviation abbreviations abide abnormal abnormally abolish abolished abolishes abolishing
abolition abort aborted aborting abortion aborts abroad absent absorb absorbed absorbing absorbs
abstract abstraction absurd abused abuses abusing abusive abysmal academics accelerate accent
accents acceptance accessed accesses accessing accidents accommodate accommodation accompanied
accompanies accompany accompanying accomplish accomplished accomplishes accomplishing accordance
accountant accountants accounted accounting accumulate accumulated accumulates accumulating
accurately accusation accusations accuse accused accuses accusing accustom accustomed accustoming
accustoms ace achievement achievements acid acknowledge acknowledged acknowledges acknowledging
acorn acoustic acquaintance acquisition acronym acronyms activate activated activates activating
actively actor actors acute adapt adaptation adapted adapter adapting adapts addict addicted
addicting addictive addicts additionally additions adequately adhere adhered adheres adhering
adjacent adjective adjusted adjusting adjustment adjustments adjusts administer administered
administering administers administrative admirable admiration admire admission adoption adult
adults advantageous advent adventure adventures adventurous adverse adversely advert advertisement
advertisements adverts advisable adviser advisers advisor advisors advisory advocate advocated
advocates advocating aerial aesthetic aesthetically affection aforementioned afternoons aged agenda
agent agents aggressive aging agony agreements agricultural aided aiding aids aircraft airport akin
alarmed alarming alarms alas albeit albums alcohol alcoholic alert algebra algebraic aliases alien
aliens align aligned aligning alignment aligns alike allegation allegations allege alleged
allegedly alleges alleging allergic alleviate alliance allies allocate allocated allocates
allocating allocation allocations allowable allowance allowances ally alongside aloud alpha
alphabet alphabetic alphabetical alteration alterations amateur amaze amazed amazes amazing
amazingly ambassador amber ambient ambiguities ambiguity ambitious amend amended amending amendment
amends amp ample amplifier amusement anagram analogous analogy analyses analyst analyze analyzed
analyzes analyzing anarchy anatomy ancestor ancestors anecdote anecdotes angel angels anger angles
anguish animals anniversary announced announcements announces announcing annoyance annually
anomalies anomaly anorak anoraks anthology anticipate anticipated anticipates anticipating
anticipation antidote antique antisocial anxious anyhow apathetic apathy apologized apologizes
apologizing apostrophe appall appalled appalling appallingly appalls apparatus apparatuses appealed
appealing appeals appearances append appended appending appendix appends applause applicable
applicant applicants appoint appointed appointing appointment appointments appoints appraisal
appreciation approached approaches approaching appropriately approximate approximately
approximation apt arbitrarily arc arcade arcane arch archaic architecture archive archived archives
archiving arena arguable arguably arisen arising armed arming arms arose array arrays arrest
arrested arresting arrests arrival arrogance arrogant arrow arrows artificially artistic artists
arts ascend ascended ascending ascends ash ashamed ashcan ashes ass assault assemble assembled
assembles assembling assert asserted asserting assertion asserts assess assessed assesses assessing
assessment asset assets assign assigned assigning assignment assignments assigns assist assistance
assisted assisting assists associations assort assorted assorting assorts assumptions asterisk
asterisks astronomer astronomers astronomy asynchronous atheism atheist atheists atlas atmospheric
atom atomic atoms atrocities atrocity attachment attacked attacking attacks attain attendance
attendant attentions attitudes attorney attorneys attracted attracting attraction attracts
attribute attributed attributes attributing audible audiences audio aunt authentic authorization
authorize authorized authorizes authorizing autobiography automate automated automates automating
automobiles availability await awaited awaiting awaits awarded awarding awards awareness awfully ax
axes axiom axioms axis babies baby backbone backgrounds backlog backspace backward bacteria
bacterium badge baffle baffled baffles baffling bag baggage bags bake baked bakes baking balanced
balances balancing ballet ballot balls banal banana bananas bands bandwagon bandwidth bang bankrupt
banks banned banner banning bans bare barely bargain bark barked barking barks baroque barred
barrel barrier barriers barring barrister barristers basement bash bashed bashes bashing basics
basket bass basses bastard bastards bat batch bath bathroom baths batteries battle baud bay beach
beam bean beans beard bearded bearding beards beast beasts beat beaten beating beats beautifully
beauty bedroom beds beef beer beers beg beginner beginners behaved behaves behaving beings belief
beliefs believable believer believers bell bells belonged belonging beloved belt bench bend bending
bends beneath beneficial bent beside beta beware bias biased biases biasing bible biblical bicycle
bicycles bigot bigoted bigotry billfold billion billions bills bin biochemistry biography
biological biologist biologists bird birds birth birthday biscuit biscuits bishop bitmap bitter
blackboard blackmail blacks blade blades blamed blames blaming blanket blanks blast blasted
blasting blasts blatant blatantly bless blessed blesses blessing blew blind blindly blink bliss
blob blocked blocking blocks blood bloody blowing blown blows blues blurb boats bob bobs bog bogged
bogging boggle boggles bogs bogus boil boiled boiling boils bold bolt bomb bombed bombing bombs
bond bone bones bonus booked booking booklet bookshop bookshops bookstore boom boost boots border
borderline bored boredom bores boring born boss bottles bounce boundaries boundary bounds bout bow
bowl boys bracketed bracketing brain brains brake brakes branded branding brands brass brave bread
breakdown breakfast breath breathe breathed breathes breathing bred breed breeding breeds breeze
brethren brick bricks bridges brigade brighter brightest brightly brightness brilliant brilliantly
broad broadly brothers browse browsed browses browsing brush brutal bubble buck bucks buffered
buffering buffers bugger buggers bulb bulbs bull bullet bullets bump bunch bundle burden
bureaucracy burn burned burning burns burnt burst bursting bursts buses bush businesses bust butter
buttons buyer buyers bye bypass cabbage cabinet cable cabled cables cabling caffeine cage cake
cakes calculated calculates calculating calculator calculus calendar caller calm cam camera cameras
camp campaigned campaigning campaigns camps campus cancel canceled canceling cancels cancer
candidates canonical cans cant cap capabilities capability capitalism capitalist capitals caps
capture captured captures capturing carbon cared career careers careless caring carpet carriage
carrier carrot carrots cars cartoon cartoons cartridge cartridges cased cash casing cassettes cast
casting castle casts casual catalogs catastrophic categorically cater catered catering caters
cathedral catholic cats cattle causal causality caution cave caveat ceased ceases ceasing ceiling
celebrate celebrated celebrates celebrating celebration cells cellular censor censored censoring
censors censorship centered centering centers centrally centuries ceremony certainty certificate
chains chairs chalk challenge challenged challenges challenging chamber champagne champion
chancellor changeover chaotic chap chapel chaps chapters characteristic characteristics charitable
charities charity charm charmed charming charms chart charter charts chase chased chases chasing
chat chats chatted chatting cheaply cheat cheated cheating cheats checker cheek cheer cheerful
cheers cheese chemicals chemist chemistry chemists chess chest chestnut chew chewed chewing chews
chicken chickens chief childhood childish chocolate choices choir chop chopped chopping chops
choral chord chorus chuck chucked chucking chucks chunk chunks churches cider cigarette cinema
circa circles circuitry circuits circular circulate circulated circulates circulating cite cited
cites cities citing citizens civil civilian civilization civilize civilized civilizes civilizing
clarification clarified clarifies clarifying clarity clash clashes classed classic classical
classics classification classified classifies classify classifying classing clause clauses cleaned
cleaner cleaners cleanest cleaning cleanly cleans clearance cleverer cleverest click client clients
cliff climate climb climbed climbing climbs clinic clinical clip clipped clipping clips clique
clocks clog clone clones closet closure cloth clothe clothed clothes clothing cloud clouds clubs
clues clumsy cluster clusters coach coal coarse coast coat coats cobbler cobblers coherent coin
coincide coincidence coined coining coins coke collaboration collapsed collapses collapsing collar
collate collated collates collating colleague colleagues collections collective colon colony
colored coloring columns combat comedy comfort comfortable comfortably comic comics comma
commandment commandments commas commence commentary commentator commentators commercially
commissioned commissioning commissions commit commitments commits committed committees committing
commodity commons communal communicated communicates communicating communism communist communists
communities compact companies companion comparative comparisons compassion compel compelled
compelling compels compensate compensation compete competed competence competent competes competing
competitive competitor competitors compilation compile compiled compilers compiles compiling
complacent complement complementary completeness completion complication complications compliment
comply composer composers composite compound comprehend comprehensible comprehension compress
compressed compresses compressing compression comprise comprised comprises comprising compulsion
computation computational computerize computerized computerizes computerizing con concatenate
concatenated concatenates concatenating conceal concealed concealing conceals concede conceivable
conceivably conceive conceived conceives conceiving concentrate concentrated concentrates
concentrating concentration conception concepts conceptual concert concerto concerts concise
conclude concluded concludes concluding conclusions concur concurrently condemn condemnation
condemned condemning condemns condense condensed condenses condensing conditional conditioned
conditioning condom condone conduct conducted conducting conductor conducts conferences confess
confidence confidential confidentiality configuration configurations configure configured
configures configuring confine confined confines confining confirmation conflict conflicted
conflicting conflicts conform confront confronted confronting confronts congest congested
congesting congestion congests congratulate congratulations conjecture conjunction connector
connotation connotations conscience conscious consciously consciousness consecutive consensus
consent consented consenting consents consequent conservation conservative conservatives
considerate considerations consisted consistently consisting consolation console conspicuous
conspiracy constantly constants constituency constituent constituents constitute constitutes
constitution constitutional constrain constrained constraining constrains constructed constructing
construction constructions constructive constructs consult consultancy consultant consultants
consultation consulted consulting consults consume consumed consumer consumes consuming contacted
contacting contacts container contemplate contemplated contemplates contemplating contemporary
contempt contend contention contentious contest contexts continent continental continual
continuations continuity continuum contour contraception contracted contracting contracts
contradict contradicted contradicting contradiction contradictory contradicts contravention
contributed contributes contributing contributor contributors contrive contrived contrives
contriving controller controllers controversial controversy convenience conveniently conversations
converse conversely conversion conversions converted converter converting converts convey convict
convicted convicting conviction convictions convicts convincingly cook cooked cookie cookies
cooking cooks cool cooled cooling cools cooperate cooperation coordinate coordinates coordination
coped copes coping copper copyright corn corporate corporation corpse corpses corrections correlate
correlation correspond corresponded correspondence correspondent corresponding corresponds corridor
corruption cosmic cosmology costed costly cotton cough councils counsel counseled counseling
counsels counterexample counterpart counterparts countless countries countryside coupled couples
coupling courage courier courtesy courts cousin coverage cow cows cozy crack cracked cracking
cracks craft cramp cramped cramping cramps crap crass crawl crawled crawling crawls cream creative
creator creatures credibility credible credits creed creep crew cricket cried cries crime crimes
criminal criminals criteria criterion critic criticisms criticize criticized criticizes criticizing
critics crop crops crossed crosses crossing crossroad crossroads crossword crowd crowded crowding
crowds crown crucial crude cruel cruelty cruise cruised cruises cruising crunch crunched crunches
crunching crush crushed crushes crushing crying cryptic crystal crystals cube cubic cuckoo cuddly
cue culprit cult cultural cultures cumbersome cumulative cunning cupboard cups cured cures curing
curiosity curiously curly currency curriculum curry curse curtain curtains curve curves custard
custom customary customers customs cute cycled cycling cyclist cyclists cylinder cynic cynical daft
damn damnation damned damning damns damp dance danced dances dancing dangerously dangers dared
dares daring darkness darling dash dashed dashes dashing databases daughter dawn daylight daytime
deadline deadly deaf dealer dealers deaths debatable debated debates debating debt debug debugged
debugger debugging debugs decades decay decimal deck declaration declarations decline declined
declines declining decode decoded decodes decoding decreased decreases decreasing deduced deduces
deducing deduction deductions deed deeds deeper deepest defaults defeat defeated defeating defeats
defect defective defects defend defended defending defends defensive deficiencies deficiency defy
degenerate degradation degrade degraded degrades degrading deity delayed delaying delays deletion
delicate delicious delight delighted delightful delighting delights delimiters delta delusion
demanded demanding demented demise democracy democratically demolish demolished demolishes
demolishing demonstrated demonstrates demonstrating demonstrations denied denies denominator denote
denotes dense density dentist deny denying departmental departments departure dependence dependent
deposit depress depressed depresses depressing depression deprive deprived deprives depriving
depths deputy derange deranged deranges deranging derivative derogatory descend descended
descending descends descriptive desert deserted deserting deserts deserve deserved deserves
deserving designate designated designates designating designer designers desktop despair
desperately despise destination destine destined destines destining destruction destructive detach
detached detaches detaching detectable detection detective detector deter determination deterrent
detract devastate devastated devastates devastating developer developers developments deviation
devil devious devise devised devises devising devoid diagnosis diagnostic diagnostics diagonal
diagram diagrams dial dialect dialects dialed dialing dialings dialog dialogue dials diameter diary
dice dictate dictator dictatorship dictionaries diesel diet differed differential differentiate
differing differs dig digest digging dignity digs dilemma dim dimension dimensional dimensions dine
dined diner dines dining dip diplomatic dire directive directives directories directors dirt
disable disabled disables disabling disadvantages disagreed disagreeing disagreement disagrees
disappoint disappointed disappointing disappointment disappoints disasters disastrous discard
discarded discarding discards discharge disciplinary disclaimer disco disconnect disconnected
disconnecting disconnects discontinue discontinued discontinues discontinuing discounts discoveries
discovery discrepancy discrete discretion discriminate discriminated discriminates discriminating
discrimination disease diseases disguise disguised disguises disguising disgust disgusted
disgusting disgusts dish dishes dishonest disliked dislikes disliking dismal dismiss dismissed
dismisses dismissing disorder disposable disposal dispose disposed disposes disposing disposition
dispute disregard disrupt disruption dissertation dissimilar distances distasteful distinctions
distinctive distinguished distinguishes distinguishing distort distorted distorting distortion
distorts distract distracted distracting distracts distress distressed distresses distressing
disturbance ditch dive dived diverse diversity divert diverted diverting diverts dives divine
diving divisions divorce doctor doctors doctrine documentary dodge dogma dogs dole dollars domestic
dominant dominate dominated dominates dominating don donate donated donates donating donation
donations dons doom doomed dooming dooms dose doses dot dots dotted dotting doubled doubles
doubling doubtless doubts downhill downright downstairs downwards draft drafted drafting drafts
drag dragged dragging dragon drags drain drained draining drains drama dramatic dramatically drank
drastically drawback drawbacks drawings dread dreaded dreadful dreading dreads dreamed dreaming
dreams dreary dress dressed dresses dressing dried dries drift drill drinking drinks drip dripped
dripping drips drivel drown drowned drowning drowns drug drugs drum drums drunk drunken drying dual
duck ducks duff dug dull duly dummy dumped dumping dumps dumpster duplicate duplicated duplicates
duplicating duplication duration dust dustbin dusty duties dynamic dynamically dynamics eager
eagerly eagle ear earn earned earning earns ears eastern eater eccentric echo echoed echoes echoing
ecological ecology economical economically economics economies edges editions editorial educate
educated educates educating effectiveness efficiency efficiently egg eggs ego egos eh eighteen
eighth elaborate elderly elections electoral electorate electrical electricity electron
electronically elegant elementary elephant elephants elevators eleven eligible eliminate eliminated
eliminates eliminating elite elitist em embarrassment embed embedded embedding embeds emerge
emerged emerges emerging eminent eminently emit emotion emotional emotionally emotions emphasize
emphasized emphasizes emphasizing empire empirical employ employed employees employer employers
employing employment employs emptied empties emptying emulate emulation emulator emulators enabled
enabling enclose enclosed encloses enclosing encode encoded encodes encoding encouragement endeavor
endings endless endlessly enemies energy enforce enforced enforces enforcing engage engaged engages
engaging engine engines enhance enhanced enhancement enhances enhancing enjoyable enjoyed enjoying
enjoyment enjoys enlarge enlarged enlarges enlarging enlighten enlightened enlightening
enlightenment enlightens enormously entail entails enterprise entertain entertained entertaining
entertainment entertains enthusiasm enthusiastic entirety entities envelope envelopes environmental
environments envisage envisaged envisages envisaging envy epic episode episodes equality equals
equate equation equations equilibrium equip equipped equipping equips equivalents era erase erased
erases erasing ergo erroneous escaped escapes escaping esoteric essay essays essence establishments
estate estimated estimates estimating estimation eternal eternity ethic ethical ethics ethnic
etymology evaluate evaluated evaluates evaluating evaluation evenly eventual everyday evident
evidently evil evils evolution evolutionary evolve evolved evolves evolving exaggerate exaggerated
exaggerates exaggerating exam examination examiner exams exceed exceeded exceeding exceedingly
exceeds excepted excepting exceptional exceptionally excepts excessively exchanged exchanges
exchanging excite excited excitement excites exciting exclamation exclusion exclusively excuses
executable execution executive exempt exercised exercises exercising exhaust exhausted exhausting
exhaustive exhausts exhibit exhibition exit exited exiting exits exotic expectation expectations
expedition expenditure expenses experimentally experimentation experimented experimenting expertise
expire expired expires expiring expiry explanations explanatory explicitly explode exploded
explodes exploding exploit exploitation exploited exploiting exploits exploration explore explored
explores exploring explosion explosions explosive exponential export expose exposed exposes
exposing exposure expressions expressway expressways extant extensions extensively extents
externally extinction extracted extracting extraction extracts extraneous extraordinarily
extraordinary extras extremes extremist eyesight fabric faced faces facilitate facing factories
factory factual factually faculties faculty failures faint fainter faintest fairer fairest fairness
fairy faithful fake fallacious fallacy fame familiarity families famine fans fantasies fantastic
fantasy farce fare farewell farmer farmers fascinate fascinated fascinates fascinating fascist
fashionable fashioned fashioning fashions fat fathers fatuous faucet faulty favorable favored
favoring favorites favors feared fearing fears feasibility feat featured featuring fee feeble
feelings fees fellow fellows female females feminist feminists fence fender fenders festival fetch
fever fiber fibers fiction fictional fiddle fiddled fiddles fiddling fierce fifteen fifth fifty
fighter fighting fights figured figuring filmed filming films filter filtered filtering filters
filthy finalize finalized finalizes finalizing finals finance finances financially findings fined
finer fines finest fining fired fires firework fireworks firing firms fished fishing fiver fizzy
flagged flagging flags flame flames flaw flawed flawing flaws fleet flesh flexibility flip flipped
flipping flips flood flooded flooding floods floors floppy flour flowed flower flowers flowing
flows fluctuation fluctuations fluent fluffy fluid flush flushed flushes flushing flute foam focus
fog fold folded folder folders folding folds follower followers fond font fonts foods fool fooled
fooling foolish fools football footnote footnotes forbade forbid forbidden forbidding forbids
forcibly forecast forecasting forecasts foreigner foreigners foreseeable forest forests forgave
forgive forgiven forgives forgiving fork formally formation formats formatted formatting formerly
formula formulae formulation fortnight fortunate forty forum forwarded forwarding forwards fossil
fought foul foundation foundations founded founding founds fountain fourteen fractions fragile
fragment fragments frames framework frank frankly frantic fraud freak freaks freed freeing frees
freeway freeways freeze freezes freezing frequencies frequency friction fried friendship frighten
frightened frightening frightens fringe frivolous frog frogs frown frowned frowning frowns froze
frozen fruit fruits frustrate frustrated frustrates frustrating frustration frying fudge fuel
fulfill fulfilled fulfilling fulfills fuller fullest fume fumes functional functionality functioned
functioning fundamentalist funded funding funeral funnier funniest fur furniture furry furthermore
fuse fusion fuss fussy futile fuzzy galactic galaxy gang gaps garage garble garbled garbles
garbling gardens gasp gate gates gateway gathered gathering gathers gay gear geared gearing gears
gender gene generalization generalizations generalize generalized generalizes generalizing
generations generator generators generic generous genes genetic genetically genetics genius
genocide genre gentle gentleman gentlemen gently genuinely geographical geography geology geometry
gesture ghastly ghost giant gibberish gift gifts gig gin girlfriend girls gladly glance glasses
glean gleaned gleaning gleans globally glorious glory glossy glove gloves glow glowed glowing glows
glue gnome goal goals goat god gods gold golden goldfish goldfishes golf goodbye goodies goodness
goody gorgeous gospel gossip govern governed governing governments governs gown grab grabbed
grabbing grabs grace grade grades gradual graduated graduates graduating graduation graffiti
graffito grain grammar grammatical grandfather grandmother graphical graphs grasp grass gratefully
gratuitous gratuitously gravitational gravity greasy greed greedy grid grief grim grip grips groan
grossly grouped grouping guarded guarding guards guest guests guidance guided guideline guidelines
guides guiding guilt guilty guinea guitar gulf gullible gum guns gut guts gutter guys ha hacked
hacker hackers hacking hacks hail haircut hairs hairy halls halt halted halting halts halve halves
ham hammer handbook handful handicap handler hangover happier happiest happiness hardback harden
hardened hardening hardens hardship hardy harmony harsh hash hassle hasten hasty hated hates hating
hatred hats havoc hay hazard hazards hazy headache headers headline headlines heap heartily hearts
heated heating heats heaven heavens heavier heaviest heel heels height heights helicopter helmet
helpless henceforth herd heresy heritage hero heroes heroic heroin herring herrings hesitate
heterosexual hexadecimal hey hided hideous hideously hierarchical hierarchy highlight highlighted
highlighting highlights highway highways hilarious hills hindsight hinted hinting hip hire hired
hires hiring historian historians historic historically hitherto ho hobby hog holder holders hollow
holy homes homosexual homosexuality honestly honesty honey honor honorary honored honoring honors
hook hooked hooking hooks hopeful hopeless hopelessly horde hordes horizon horizontal horizontally
horn horrendous horrendously horribly horrid horrific horrified horrifies horrify horrifying horror
hospitals hostile hosts housed household houses housing hugely huh hum humane humanity humans
humble humbly humor humorous hungry hunted hunting hunts hurt hurting hurts hut hydrogen hyphen
hypocrisy hypocrite hypocritical hypothesis hypothetical hysterical icon icons id idealistic
ideally ideals identically identification identified identifier identifiers identifies identifying
ideological ideology idiom idiosyncratic idiot idiotic idiots idle ignorance ignorant illegally
illiterate illness illogical illusion illustrate illustrated illustrates illustrating illustration
illustrations imaginary imaginative imagined imagines imagining imbalance immature immense
immensely imminent immoral immortal immune impair impaired impairing impairs impend impended
impending impends imperative imperfect imperial impersonal implausible implementation
implementations implicit implicitly import imported importing imports impractical impress impressed
impresses impressing impressions impressive imprison imprisoned imprisoning imprisons improbable
impulse inaccessible inaccuracies inaccuracy inaccurate inadvertently inane inappropriate incapable
incarnation incentive incidence incidental incidents inclination inclusion inclusive incoherent
incoming incompetence incompetent incomprehensible inconsistencies inconsistency inconvenienced
inconveniences inconveniencing inconvenient incorporate incorporated incorporates incorporating
incorrectly increasingly incredible incredibly increment incur incurred incurring incurs
indefensible indefinite indefinitely indent independence indeterminate indexed indexes indexing
indicated indicating indications indicative indicator indicators indictment indirect indirection
indirectly indistinguishable induce induced induces inducing induction indulge indulged indulges
indulging industries ineffective inefficiency inefficient inequality inertia inevitable
inexperienced infallible infamous infant infantile infect infected infecting infection infects
infelicity infer inference inferiority infinitely infinity inflation inflexible inflict influenced
influences influencing influential informal informally informative infrastructure infrequent
infringement ingenious ingredient ingredients inhabit inhabitant inhabitants inhabited inhabiting
inhabits inherent inherently inherit inheritance inherited inheriting inherits inhibit inhibited
inhibiting inhibition inhibits initialization initialize initialized initializes initializing
initiate initiated initiates initiating initiative inject injure injured injures injuries injuring
injury injustice ink innocence innovation innovative inquire inquired inquires inquiries inquiring
inquiry insane insect insects insecure insensitive insertion insidious insight insignificant
insistence insofar inspect inspected inspecting inspection inspects inspiration inspire inspired
inspires inspiring installation installations instances instinct institute instruct instructed
instructing instructs instrument instrumental instruments insufficient insult insulted insulting
insults intact intake integrate integrated integrates integrating integration integrity intellect
intellectual intense intensely intensity intensive intent intentional intentionally intentions
inter interacted interacting interaction interactions interactive interactively interacts
intercourse interestingly interfaced interfaces interfacing interfere interfered interference
interferes interfering interim interior intermediate intermittent internally internals
interpretations interpreter interrogate interrupt interrupted interrupting interruption
interruptions interrupts intersection intersections intervene intervened intervenes intervening
interview interviewed interviewing interviews intimate intolerance intrinsic intrinsically
introductory intuitive invade invaded invades invading invalidate invaluable invasion invention
inventions inventor inverse invert inverted inverting inverts invest investigated investigates
investigating investigation investigations investment invoke invoked invokes invoking involvement
ion irate iron ironic irony irrational irrespective irresponsible irritation island islands
isolation jack jacket jackets jail jam jammed jamming jams jargon jazz jealous jeans jellies jelly
jerk jest jet jointly joints joked jokes joking jolly journal journalist journalists journals
journey judged judges judging judgments juice jumped jumping junction jungle junior jury justice
justifiable justifiably juvenile keeper ken kernel kettle keyboards keyed keying keystroke
keystrokes keyword keywords kick kicked kicking kicks kidded kidding kidnap kidnapped kidnapping
kidnaps kidney kids killer kindness kingdom kings kiss kit kitchen kits knee knees knife knight lab
labs lad ladder lag lager laid lake lamp landlord landscape lane lark laser lasers lasted lasting
lately laugh laughed laughing laughs laughter launch launched launches launching lavatory lawn
lawyer lawyers layer layers laying lays laziness leaders leadership leaflet leaflets league leak
lean leaned leaning leans leap leather lectured lecturer lecturers lecturing legend legendary
legible legislation legitimate legitimately leisure lemon lending lends lengths lengthy lenient
lens lenses lent lesbian lest lethal liability liaison libel liberal liberties liberty librarian
license licensed licenses licensing lid lifestyle lifted lifting lifts lighted lighter lightest
lighting lightly lightning lightninged lightnings likelihood limb limbs limitation limitations
lined linguistic lining linkage lion lip lips liquid liquor lisp listened listener listening
listens listings lit liter literal literary literate litter lively liver livest loader loans lobby
locally locals locate located locates locating lodge logically logo lonely loophole loops loosely
lord lords losses loud louder loudest lousy loved lovely lover lovers loves loving lowered lowering
lowers loyal luckily ludicrous ludicrously luggage lump lumps lunatic lunchtime lung lungs lurk
lurked lurking lurks lust luxury lyric lyrics machinery madness magazine magazines magical
magnificent mailbox mailed mailing mails mainframe mainframes mains mainstream maintenance maize
maker makers male males malfunction malicious management managers mandate mandatory mangle mangled
mangles mangling mania manifestation manifestly manifesto manipulate manipulated manipulates
manipulating mankind manned manning manpower mans manually manufacture manufactured manufacturer
manufacturers manufactures manufacturing mapped mapping maps margin marginal marginally margins
marital marker markers marketed marketing markets married marries marrying marvelous mask masses
massively masters matched matching mate mathematically mathematician mathematicians matrices matrix
mature maximize mayor maze meal meals meantime meanwhile measurement measurements meat mechanical
mechanisms medicine medieval megabyte megabytes melody melt memorable memories mend mended mending
mends mental mentality mentally menu menus mercury mercy merge merged merges merging merry messed
messes messing metaphor meter meters metric metro metros mice microcomputer microcomputers
microprocessor microwave midday mighty migrate migrated migrates migrating migration mild mildly
mileage milk mill mimic mindless mined mines minimalist minimize mining minister ministers
minorities mint minus miracle miracles miraculous mirror mirrors miscellaneous misdirect
misdirected misdirecting misdirects miserable miserably misery misfortune misguide misguided
misguides misguiding misinterpret misinterpreted misinterpreting misinterprets misplace misplaced
misplaces misplacing misprint misread misreading misreads misrepresent misrepresented
misrepresenting misrepresents missile missiles mission mist mistakenly mists mixture mnemonic moan
moaned moaning moans mob mobile mock modeled modeling modelings moderate moderately moderation
modes modest modification modifications module modules mold mole molecular molecule molecules mom
momentarily moments momentum monarch monitored monitoring monitors monkey monkeys monochrome
monopoly monster monsters monthly mood moon moons morality morally morals moreover moron morons
mortal mortality mortals mothers motions motivate motivated motivates motivating motivation motive
motives motor motors motorway motorways motto mount mountain mountains mounted mounting mounts
mouse movies muck mucked mucking mucks mud muddle muddled muddles muddling mug mugs multiples
multiplication multiplied multiplies multiply multiplying mum mumble mummy mundane murder murdered
murderer murdering murders muscle muscles museum museums musical musician musicians mutter muttered
muttering mutters mutual mutually mysteries mysteriously mystery mystic myth mythical mythology
myths nail nailed nailing nails naked nameless narrative narrow narrower narrowest nastier nastiest
nationally nations native natives nay neat neatly needle needles needless needlessly negate neglect
neglected neglecting neglects negligible negotiable negotiate negotiated negotiates negotiating
negotiation negotiations neighbor neighborhood neighbors nerve nerves nest nested nesting nests
nets networked networking neural neutral newcomer newcomers newer newest newly newsletter
newsletters newspaper newspapers nicely nick nicked nicking nickname nicknames nicks nightmare
nights nil noble node nodes noises nominal nominally nominate nominated nominates nominating
nonetheless noon norm normality northern nose noses nostalgia notable notably notation noticeable
noticeably notification notified notifies notifying notion notions notorious notwithstanding noun
nouns novels novelty novice novices nuclear nuisance null numbered numbering numeral numerals
numeric nun nuns nurse nurses nut nuts oar obeyed obeying obeys objectionable objective obligation
obligatory oblige obliged obliges obliging obnoxious obscene obscured obscures obscuring obscurity
observations observer observers obsess obsessed obsesses obsessing obsession obsolete obstruct
obstructed obstructing obstructs obtainable occupation occurrence occurrences ocean oddly offend
offended offender offenders offending offends offense offenses offensive offerings offhand officers
officially officials offset offsets offsetting offspring omission omissions oneself ongoing onion
onus openly opera operas operational opponent opponents oppress oppressed oppresses oppressing
oppression opt opted optic optical optimal optimistic optimization optimize optimized optimizes
optimizing optimum opting optionally opts opus opuses oral orange orbit orbital orchestra
orchestral organ organic organizations organizer organizers organs orient oriental orientate
orientated orientates orientating orientation oriented orienting orients originals originate
originated originates originating originator origins orthodox outcome outcomes outcry outdated
outgoing outline outlined outlines outlining outlook outputs outrage outraged outrageous outrages
outraging outright outset outstanding outweigh outweighs overcame overcome overcomes overcoming
overdraft overdue overflow overhead overheads overlap overload overloaded overloading overloads
overlong overlook overlooked overlooking overlooks overly overnight overprice overpriced overprices
overpricing overridden override overrides overriding overrode overseas overtime overtone overtones
overview overwhelm overwhelmed overwhelming overwhelms overwriting overwritten owned ownership
owning owns oxygen ozone pace pacifier packaged packaging packed packets packing packs pad padded
padding pads paged paging painfully painless pains paint painted painting paintings paints palace
pale pan panel panels panic pant pants paperback par parade paradise paradox paragraphs parallels
parameter parameters paranoia paranoid paraphrase pardon parentheses parenthesis parents parity
parked parking parks parliament parochial parody parrot parse parsed parses parsing participant
participants participate participated participates participating particle particles partition
partitioned partitioning partitions partner partners passage passages passenger passengers passion
passionate passive passport password passwords paste pat patched patches patching patent pathetic
paths patience patients patronize patronized patronizes patronizing paused pauses pausing pavement
payment payments peaceful peaks peanut peanuts peasant peasants pedal pedant pedantic pedantry
pedants pedestrian pedestrians peer peers penalties penalty pence pencil pended pending pends
penguin pennies penny pens peoples perceive perceived perceives perceiving percent percentage
percents perception perfection performances periodic periodically periods peripheral peripherals
permissible perpetual persecute persecuted persecutes persecuting persist persistent personalities
personality personnel perspective persuasion perverse pet petty pharmacies pharmacy phased phases
phasing phenomena phenomenons philosopher philosophers philosophical philosophies phoenix phoned
phones phoning photo photocopy photograph photographic photographs photos phrased phrasing physic
physically physicist physicists physics physiology piano pie pig pigeon pigs piles pill pills pilot
pin pinch pinched pinches pinching pink pins pints pipeline pipes pit pitch pitfall pitfalls pity
pizza pizzas plague plagued plagues plaguing plainly planes planetary planets planted planting
plants plaster plastered plastering plasters plate plates platform plausible player players
playground pleasantly pleasure plotted plotter plotting ploy plugged plugging plugs plural pockets
poems poetic poetry poets pointer pointers poison poisoned poisoning poisons poke polar pole
policeman polish polished polishes polishing polite politeness politically politician politicians
politics polls pollution polynomial pompous poorer poorest poorly pope popped popping pops populace
popularity populate populated populates populating populations pork pornography portability
portable ported porter porters porting portion portions portray portrayed portraying portrays ports
pose posed poses posing positioned positioning positively possess possessed possesses possessing
possession postage postal postcard poster posters postpone postponed postpones postponing
postscript postulate pot potato potatoes pour poured pouring pours poverty powder powered powering
practicable practicals practiced practices practicing pragmatic praise pray prayed prayer prayers
praying prays preach preached preaches preaching precaution precautions precede preceded precedence
precedent precedes preceding precious precision predecessor predecessors predict predictable
predicted predicting prediction predictions predicts predominantly preface preferences prefix
prefixed prefixes prefixing pregnancy pregnant prejudice prejudiced prejudices prejudicing
preliminary premature prematurely premise premises premium prerequisite prescribe prescribed
prescribes prescribing prescription presentation presently preserved preserves preserving pressures
presumed presumes presuming pretend pretended pretending pretends pretentious prevail prevalent
prevention preview previewer priced pricing pride priest priests primarily primes primitives prince
principal principally printouts priorities priority prison prisoner prisoners privacy privately
privatization privilege privileged privileges privileging prize prizes pro probabilities
probability probable procedures proceed proceeded proceeding proceedings proceeds proclaim producer
producers productive productivity profession professionals professor profile profiles profit
profitable profits profound programmable progressed progresses progressing prohibit prohibited
prohibiting prohibits projected projecting projection proliferation prolong prolonged prolonging
prolongs prominent promote promoted promotes promoting promotion prompted prompting prompts pronoun
pronounce pronounced pronounces pronouncing pronunciation proofs propaganda prophet proportional
proportions proposals proposition proprietary prose prosecute prosecuted prosecutes prosecuting
prosecution prospective prospects prostitute prostitutes protein protocol protocols prototype proud
proven provision provisional provisions provocative provoke provoked provokes provoking proximity
pseudo psychological psychologist psychologists psychology pub publications publicize publicized
publicizes publicizing publisher publishers pudding pulp pulse pulses pump pumped pumping pumps pun
punch punched punches punching punish punished punishes punishing punishment puns punt punts pupil
pupils purchased purchases purchasing purge purity purple pursue pursued pursues pursuing pursuit
puzzle puzzled puzzles puzzling python qualification qualifications qualifier qualifiers qualities
quantum quarters queen queens queries query quest questionable questioned questioning questionnaire
queued queues queuing quibble quieter quietest quiz quota quotas quotation quotations rabbit
rabbits rabid raced races racial racing racism racist rack racket racks radar radiation radical
radically radios radius rag rage raid raids rail railroad rails railway rainbow rained raining
rains ram rampant rang ranged ranges ranging rank ranks rant ranted ranting rants rape rarer rarest
rash rat rated rating ratio rational rationale rationally ratios rats rattle rattled rattles
rattling rave raved raves raving ray razor reacted reacting reactionary reactions reactor reacts
readership readings realistic realization realm realms rear rearrange rearranged rearranges
rearranging reasoned reasoning reassure reassured reassures reassuring rebuild rebuilding rebuilds
rebuilt recalled recalling recalls receipt receiver recipe recipes recipient recipients reckless
reckon reckoned reckoning reckons reclaim recognizable recollection recommendations reconcile
reconsider recorder recordings recovery recreational recruit recruited recruiting recruitment
recruits rectangle rectangular rectified rectifies rectify rectifying recursion recursive recycle
recycled recycles recycling redefine redefined redefines redefining redirect reductions redundancy
referenced referencing referendum refine refined refines refining reflex reform reformat reformed
reforming reforms refrain refresh refreshed refreshes refreshing refund refusal refute regain
regime regional regions registration regrets regrettably regretted regretting reign reinstate
reinstated reinstates reinstating reiterate rejection relations relationships relatives relativity
relax relaxed relaxes relaxing relay reliability reliably relied relief relies relieve relieved
relieves relieving religions relocation reluctance reluctantly relying remainder remarkable
remarkably remarked remarking remedy reminder reminiscent rename renamed renames renaming rend
render rendered rendering renders rending rendition rends renew renewed renewing renews rent
repaired repairing repairs repeatable repent repertoire repetition repetitive rephrase replacements
reporter representations representatives reproduced reproduces reproducing reproduction repulsive
reputation requisite reread rereading rereads rescue researcher researchers resemblance resemble
resembled resembles resembling resent reservation reservations reset resets resetting reside
residence residents resides resign resignation resigned resigning resigns resist resistance resolve
resolved resolves resolving resorted resorting resorts respectable respected respecting respective
responded responding responds responsibilities restarted restarting restarts restaurant restaurants
rested resting restrain restrained restraining restrains restriction restrictions restrictive rests
resume resumed resumes resuming resurrection retail retained retaining retains retire retired
retirement retires retiring retract retrieval retrieve retrieved retrieves retrieving reuse
revelation revenge revenue reversed reverses reversing revert reviewed reviewing reviews revise
revised revises revising revision revolt revolted revolting revolts revolution revolutionary reward
rewards rewrites rewriting rewritten rewrote rhetorical rhyme rhythm ribbon rice rich richer
richest ridden rides ridiculously riding rightly rigid rigorous ringed ringing rings riot rip
ripped ripping rips risen rises rising risked risking risks risky ritual rituals rival rivals
rivers roads robot robots robust rock rocket rocks rod rode roles rolled rolling rolls roman
romance romantic roof roots rope rose rot rotate rotated rotates rotating rotation rotten
roundabout rounded rounding rounds rout routed routes routinely routines routing routs rows royal
royalties rub rude ruin ruined ruining ruins ruled ruler rulers ruling rumored rumoring rumors rung
rural rushed rushes rushing rusty sabotage sack sacked sacking sacks sacred sacrifice sacrificed
sacrifices sacrificing sadden saddened saddening saddens safeguard safeguards saga sail sailed
sailing sails salaries salary salesman salt salvation sampled samples sampling sand sandwich
sandwiches sane sang sanity sank sarcasm sarcastic satellite satellites satire satisfaction
satisfactorily satisfactory sauce savings scaled scales scaling scandal scanned scanner scanning
scans scarce scarcely scare scared scares scarf scaring scarlet scatter scattered scattering
scatters scenario scenarios scenery scenes schedule scheduled scheduler schedules scheduling
schemes scholar scholars scientifically scientist scientists scope scored scoring scotch scrapped
scrapping scraps scratched scratches scratching scream screamed screaming screams screw screwed
screwing screws scripts scroll scrolled scrolling scrolls scum sea seal sealed sealing seals seat
seats seconded seconding secretaries secretly secrets sect sector sects secular seed seemingly
segment segments seldom selective selectively selfish semantic semantics seminars sender sensation
senses sensitivity sentenced sentencing sentient sentiment sentimental sentiments separated
separates separating separation separator separators sequel sequential seriousness sermon servant
servants servers settings seventh severity sexes sexist sexual sexuality sexually sexy shade shades
shadow shake shaken shakes shaking shaky shallow shaped shapes shaping shareholder shareholders
sharply shed shedding sheds sheep sheer sheets shells shelter shelve shelves shifted shifting
shifts shine shined shines shining shiny shipped shipping ships shirt shock shocked shocking shocks
shoe shoes shone shook shooting shoots shorten shortened shortening shortens shorthand shorts shot
shots shoulder shoulders shout shouted shouting shouts shove shower showers shutdown shy sic sick
sicken sickened sickening sickens sided sideways siding sigh sighted sighting sights sigma signaled
signaling signature signatures silence silent silicon sillier silliest silver similarities
similarity simplicity simplified simplifies simplify simplifying simplistic simulate simulated
simulates simulating simulation sin sincere sine sinful sing singer singers singing singles sings
singular singularly sinister sink sinking sinks sins sir sister situate situated situates situating
sixteen sixth sixties sixty sized sizing skeleton skeptical sketch sketches skilled skin skip
skipped skipping skips skirt skull sky slag slang slash slave slaves sleeping sleeps slept slice
sliced slices slicing slid slide slides sliding slighter slightest slim slipped slippery slipping
slips slogan slope sloppy slot slots slowed slowing slows smallish smart smash smashed smashes
smashing smell smells smelly smiled smiles smiling smith smoke smoked smoker smokers smokes smoking
smoothly smug snack snag snail sneak sneaked sneaking sneaks sneaky sniff snobbery snow soap sober
socialism socialist socially societies sock socket sockets socks sod soil solar soldier soldiers
sole soles solicitor solicitors solo song songs sons sordid sore soul souls soundtrack soup spaced
spacing span spares spatial specialist specialize specialized specializes specializing specialty
species specification specifications specimen spectacular spectrum speculate speculation sped
speeches speeding speeds spellings sphere spies spigot spike spill spin spiral spirits spiritual
spit spits spitted spitting splendid spoil spoiled spoiling spoils spokesman sponsor sponsored
sponsoring sponsors spontaneous spontaneously spoof spool sport sports spout sprang spray springing
springs sprung spur spurious spy squad squared squares squaring squash squashed squashes squashing
squeeze squeezed squeezes squeezing stability stack stacks stagger staggered staggering staggers
stair staircase stairs stake stale stall stamp stamped stamping stamps stance standardize
standardized standardizes standardizing standpoint star stare stared stares staring stark starred
starring stars starter starters startle startled startles startling starve starved starves starving
static stationary steadily steady stealing steals steam steel steep steer steered steering steers
stem stems stepped stepping steps stereo stereotype stereotypes sterile sterling sticky stiff
stimulate stimulated stimulates stimulating stimulation stir stirred stirring stirs stocks stole
stolen stomach stories storm storms strain strains strangely stranger strangest strategic
strategies straw stray streams streets strengthen stress stressed stresses stressing stretch
stretched stretches stretching stringent strip stripped stripping strips strive stroke stronger
strongest structural structured structuring struggle struggled struggles struggling studio stuffed
stuffing stuffs stumble stumbled stumbles stumbling stun stunned stunning stuns stunt stupidity
styles subjected subjecting subjective submission subroutine subroutines subscribe subscription
subsequently subsidiary subsidize subsidized subsidizes subsidizing substance substances
substantially substituted substitutes substituting substitution subtleties subtlety subtly subway
subways succeeded succeeding succeeds succession successive successor sue sued sues sufferer
sufferers suffix suicidal suicide suing suitability suite summaries summarize summarized summarizes
summarizing summed summing sums sundry sung sunk sunlight sunny sunrise sunshine super superb
superficial superficially superfluous superiority supermarket supernatural supervise supervised
supervises supervising supervision supervisions supervisors supplement supplementary supplier
suppliers supporter supporters suppress suppressed suppresses suppressing suppression supreme
surfaces surgery surname surplus surprisingly surround surrounded surrounding surroundings
surrounds surveys survival susceptible suspension suspicious suspiciously sustain sustained
sustaining sustains swallow swallowed swallowing swallows swam swamp swamped swamping swamps swap
swapped swapping swaps swear swearing swears sweat sweating sweats sweep sweeping sweeps sweet
swept swim swimming swims swing sword swore sworn swum symbolic symmetric symmetry sympathetic
sympathies sympathize sympathy symphonies symphony symptom symptoms syndicate syndrome synonym
synonymous synonyms syntactic syntactically synthesis synthesizer systematic tab tabs tack tacked
tacking tackle tackled tackles tackling tacks tactic tactical tactics tactless tag tail tailor
tailored tailoring tailors tails taker takers tale talent talented talents tales tall tame tangent
tap targets tasted tasteless tastes tasting taxation taxes taxi taxpayer taxpayers teachers teams
teapot tear teared tearing tears technically technological teenage teenager teenagers telephones
telescope temper temperatures temple tempt temptation tempted tempting tempts tended tendencies
tender tending tennis tens tense tension tentative tentatively tenth termed terminally terminate
terminated terminates terminating termination terminator terming terrible terrified terrifies
terrify terrifying territory terror terrorism terrorist terrorists terse textbook textbooks texts
textual thanked thankful thankfully thanking theater thee theft theirs theme themes theological
theology theorem theorems theoretically theories therapy thereabouts thereafter therein thereof
theses thesis thick thickness thief thieve thieves thirst thirty thorough thoroughfare
thoroughfares thou thous thread threaten threatened threatening threatens threats threshold throat
throats throughput thrust thrusting thrusts thumb thy tick tidied tidies tidy tidying tiger tightly
tile tiles timer timescale timetable tins tiny tip tips tire tired tires tiresome tiring toad toast
tobacco toe toes toggle toilet toilets tokens tolerance tolerant tolerate tolerated tolerates
tolerating toll tomato tomatoes tome ton tone tones tongue tons tool tools topical tops tore torn
torture toss tough tour tourist tourists tower towers towns toy toys traced traces tracing tracked
tracking trade traded trades trading tradition traditionally traditions tragedy tragic trail
trailed trailing trails transaction transactions transcript transform transformation transformed
transforming transforms transient transit transition translations translator transmission
transmissions transmit transmits transmitted transmitter transmitters transmitting transparent
transported transporting transports trashcan traveled traveling travelings travels tray tread
treasure treaty trek tremendous tremendously trend trends trendy trials triangle triangles tribe
tribes tricks tricky trifle trigger triggered triggering triggers trilogy trinity triple tripos
trips triumph trivia trivially trolley troop troops troubles trouser trousers trumpet truncate
truncated truncates truncating trunks trusty truths tube tubes tuned tunes tuning tunnel tunnels
turntable tutor tutorial twentieth twin twins twist twisted twisting twists typeset typesets
typesetting typewriter typically ugh umbrella unaffected unambiguous unattended unauthorized
unavailable unavoidable unbalanced unbearable unbelievable unbelievably unbiased uncertainty
unchanged uncle uncomfortable uncommon unconnected unconscious unconvincing undefined underestimate
undergo undergoes undergoing undergone underground undergrounds underlain underlay underlie
underlies underline underlined underlines underlining underlying understandable undertake
undertaken undertakes undertaking undertook underwent undesirable undid undo undocumented undoes
undoing undone undoubtedly unduly uneasy unemployed unemployment unexpected unexpectedly
unexplained unfair unfamiliar unfinished unfounded unfriendly unhealthy unhelpful unified unifies
uniformly unify unifying unimportant uninteresting union unions uniquely united unites uniting
unity universally universe unjustified unload unlock unlocked unlocking unlocks unlucky unnatural
unobtainable unofficial unpopular unpredictable unread unreadable unrealistic unrelated unreliable
unsafe unsatisfactory unseen unset unsolicited unsound unspecified unstable unsuccessful
unsupported unsure unsuspecting untidy unto untrue unusable unused unusually unwelcome unwilling
unwise unworkable upbringing upgrade upgraded upgrades upgrading upright ups upside upstairs upward
urban urge urged urgency urgent urgently urges urging usable usefully usefulness utilities utter
vacancies vacancy vacuum vain valley valued valuing valve valves vandalism vanish vanished vanishes
vanishing variance variant variants variations varieties vat vectors vegetable vegetables
vegetarian vehicle vehicles vein velocity vend vended vending vendor vends venture venue venues
verb verbal verbally verbatim verbose verbs verdict verification verified verifies verify verifying
versatile verse verses versus vertical vertically vessel vet viable vicar vicinity vicious victim
victims victory viewed viewer viewing viewpoint viewpoints vigorously vile village villages vintage
vinyl violate violation violence violent violently violin virgin virtual virtues virus viruses
visited visiting visitor visitors visits visual visually vocabulary vocal voices void voltage
volumes voluntarily voluntary volunteer volunteered volunteering volunteers vomit voted voter
voters voting vouch vowel vulnerable wade waded wades wading waffle wage wages wake waked wakes
waking wallet wander wandered wandering wanders ward warehouse warmed warming warms warnings warp
warped warping warps warrant warranty wars wartime wary washed washes washing wasteful waters wave
waved waves waving weak weakness weaknesses wealth wealthy weapons weary weasel weasels wed wedded
wedding weds wee weekday weekends weekly weigh welfare wet wets wetting whale whales whence
whereupon whichever whim whiskey whistle whistles whites wholeheartedly wholly whoop whoops wicked
width wildly willingly winded winding windowing winds wines wing wings winner winners wipe wiped
wipes wiping wired wires wiring wisdom wiser wisest wit witch withdrawal withdrawing withdrawn
withdraws withdrew witness witnessed witnesses witnessing witty wive wives wizard woke woken wolf
wombat wonderfully wondrous wont wood woods workable workings workload workshop workstation
workstations worlds worldwide worm worms worship worthless wound wow wrap wrapped wrapper wrappers
wrapping wraps wrath wreck wrecked wrecker wrecking wrecks wren wretched wrist writers writings
wrongly wrongs yard yards yawn yearly yeti yield yields younger youngest yourselves youth zeros
zone zones zoom
"""

LEVEL_35 = """
aback abacus abandonment abated abates abating abbeys abbots abdicate abdication abdomen abdominal
abduct aberration abet abetted abetting abhor abhorred abhorrence abhorrent abhorring abject ablaze
ablest ably abnormality aboard abode abominable abomination aboriginal aborigine abortive abound
aboveboard abrasive abreast abridge abrupt abruptest abscess abscond absentee absolutest absolve
absorbent absorption abstain abstention abstinence abstruse absurdest absurdity abundance abundant
abuser abyss academically academy accede acceleration accelerator accentuate acceptability
acceptably accessibility accessory acclaim acclimate acclimatize accolade accompaniment accompanist
accomplice accomplishment accordion accost accountability accountable accountancy accredit accrue
accumulation accuser aced ached aches achievable aching acidity acing acknowledgment acne acquaint
acquiesce acquiescence acquit acquittal acquitted acquitting acreage acrid acridest acrimonious
acrimony acrobat acrobatic acrylic activist actress actuality actuary acumen acupuncture acuter
acutest ad adage adamant adaptable adaptive addendum addiction additive addressee adept adherence
adherent adhesion adhesive adjoin adjourn adjournment adjunct adjustable administrator admirably
admiral admirer admissible admittance admonish admonition ado adobe adolescence adolescent adorable
adoration adore adorn adornment adrift adroit ads adulation adulterate adulteration adultery
adulthood advancement adventurer adverb adverbial adversary adverser adversest adversity advertiser
aerodynamic aerosol aerospace afar affable affably affectation affectionate affidavit affiliate
affiliation affinity affirm affirmation affirmative affix afflict affliction affluence affluent
affordable affront afield aflame afloat afoot aforesaid afresh aftereffect afterlife afterlives
aftermath afterthought aggravate aggravation aggregate aggression aggressiveness aggressor aghast
agile agility agitate agitation agitator aglow agnostic agnosticism agonize agreeable agreeably
agriculture aground ah ahoy ail ailment aimless airborne airfield airier airiest airline airliner
airmail airplane airstrip airtight airy aisle ajar alarmist albinos alcoholism alcove ale alga
algae alibi alienate alienation alight alimony alkali alkaline allay allegiance allegorical
allegory allergy alleys allied alligator allot allotment allotted allotting alloy allude allure
allusion almanac almighty almonds alms aloft aloof alphanumeric altar alterable alternation
alternator altitude altos altruism altruistic aluminum amalgamate amalgamation amassed amasses
amassing amateurish amazement ambiance ambidextrous ambition ambivalence ambivalent ambled ambles
ambling ambulance ambush amenable amenity amethyst amiable amiably amicable amicably amid amiss
ammonia ammunition amnesia amnestied amnesty amoeba amoebae amok amoral amorous amorphous ampere
ampersand amphetamine amphibian amphibious amphitheater ampler amplest amplification amplified
amplify amplitude amputate amputation amulet anachronism anal analgesic analytic analytical
analyzer anarchic anarchism anarchist anathema anatomical ancestral ancestry anchor anchorage
anchovy ancientest android anemia anemic anesthesia anesthetic anew angler angrier angriest angrily
angular animate animation animosity ankle annals annex annexation annihilate annihilation annotate
annotation announcer annuity annul annulled annulling annulment anoint anomalous anonymity
answerable ant antagonism antagonist antagonistic antagonize anteater antelope antenna antennae
anthem anthill anthrax anthropological anthropologist anthropology antibiotic antibody antic
anticlimax antifreeze antipathy antiquate antiquity antiseptic antitheses antithesis antler antonym
anus anvil anxiety aorta apartheid apartment aped aperture apes apex aphorism apiece aping aplomb
apocryphal apologetic apologetically apostle apparel apparition appease appeasement appendage
appendices appendicitis appetite appetizer appetizing applaud appliance applicability applicator
appointee apposite appraise appreciable appreciative apprehend apprehension apprehensive apprentice
apprenticeship approachable appropriation apricot apron aptest aptitude aquamarine aquarium aquatic
aqueduct arable arbiter arbitrate arbitration arbitrator arbor archaeological archaeologist
archaeology archbishop archery archest archetypal archipelago architect architectural archway
ardent ardor arduous argumentative aria arid aristocracy aristocrat aristocratic ark armadillo
armament armchair armistice armored armoring armors armory armpit aroma aromatic arouse arraign
arrears arsenal arsenic arson arterial artery artful arthritic arthritis artichoke articulate
articulation artifact artifice artillery artisan artistically artistry artwork asbestos ascension
ascent ascertain ascetic ascribe asexual ashen ashore ashtray askance asparagus aspens aspersion
asphalt asphyxiate asphyxiation aspirant aspiration aspire aspirin assail assailant assassin
assassinate assassination assent assertive assessor assimilate assimilation associative assortment
assurance asteroid asthma astonish astonishment astound astray astride astringent astrological
astrology astronaut astronomical astute astuter astutest asylum asymmetry atheistic athlete
athletic atone atonement atrocious attainment attentive attest attic attire attractiveness
attributable attribution auburn auction auctioneer audacious audacity audibly audit audition
auditor auditorium auditory augment auguster augustest aural auras auspicious austere austerer
austerest austerity authentically authenticate authenticity authoritarian authoritative authorship
auto autobiographical autocracy autocrat autocratic autograph automation automotive autonomous
autonomy autopsied autopsy autumnal auxiliary avail avalanche avarice avaricious avenge avenue
averse aversion avert aviation aviator avid avocado avoidable avoidance avow avowal awaken awed
awes awesome awfuller awfullest awhile awing awkwardest awkwardness awning awoke awoken awry axed
axing axiomatic axle ayes azalea azures babble babes babied babier babiest baboon babyish bachelors
backfire backgammon backhand backlash backlogged backlogging backpack backside backslash backstage
backtrack backwoods bacterial baddest badgered badgering badgers badminton badness bagel bagged
baggier baggiest bagging baggy bailed bailing bails bait bakers bakery balcony balded baldest
baldness balds baled baling balked balking balks ballad ballast ballerina ballistics ballooned
ballooning balloons ballroom balmier balmiest balms balmy baloney bamboo bamboozle bandage bandanna
bandied bandier bandies bandiest bandit bandstand bandying bani banish banisters banjo banknote
bankruptcy banquet bantered bantering banters baptism baptize barbarian barbaric barbarous barbecue
barbed barbered barbering barbers barbing barbiturate barbs bards bareback barest barged barging
baritone barnacles barnyard barometer barons barrage barrener barrenest barrens barrettes barricade
bartender bartered bartering baseball baseline baser basest bashful basin bask basketball bassoon
baste bathtub batons batsman battalion batted battered battering batting battlefield battleship
bawdier bawdiest bawdy bawl bayonet bayou bazaar beacon bead beadier beadiest beagles beak bearable
beautician beautified beautify beavered beavering beckon bedbug bedclothes bedded bedder bedding
bedlam bedridden bedrock bedside bedspread bedtime beeches beefier beefiest beefy beehive beeper
beeswax beet beetle beeves befall befallen befell befit befitted befitting befriend beggar begged
begging begrudge beguile behalves behavioral behead beheld behold beige belabor belated belched
belches belching belfry belie belittle bellboy bellhop bellied belligerent bellowed bellowing belly
belying bemoan bemuse benediction benefactor beneficiary benevolence benevolent benighted benign
bequeath bequest bereave bereavement bereft beret berried berries berrying berserk berthed berthing
berths beseech beset besetting besiege besought bestial bestiality bestow betcha betray betrayal
betrothal betterment bettor beverages bewilder bewilderment bewitch bib bibliographic bibliography
bicentennial bickered bickering bidden bide biennial bifocals bigamist bigamous bigamy bike bikini
bilateral bilingual billboard billiards billowed billowing billows bingo binned binomial
biochemical biodegradable biographer biographical bipartisan biped biplane birched birches birching
birdcage birthmark birthplace bisect bisexual bitch bitterest bitterness bittersweet blab blabbed
blabbing blackberry blackbirds blacken blackest blackhead blackjack blacklist blackout blacksmiths
blacktop blacktopped blacktopping bladder blameless blanched blanches blanching blancmange blandest
blankest blared blares blaring blaspheme blasphemous blasphemy blazed blazers blazes bleach bleaker
bleakest blearier bleariest bleary bleat bled bleed blemish blended blending blends blighted
blighting blights blimp blindest blindfold blindness blip blissful blister blithe blither blithest
blitzed blitzes blitzing blizzards blobbed blobbing bloc blockade blockage blockbuster blockhead
blog blogged blogger blogging blond blonde blondest bloodhound bloodied bloodier bloodiest
bloodshed bloodshot bloodstream bloodthirstier bloodthirstiest bloodthirsty bloomed blooming blooms
blossomed blossoming blossoms blot blotch blotted blotters blotting blouse blowout blowtorch
blubber bludgeon bluebell blueberry bluebird bluegrass blueprint bluer bluest bluff bluffest
blunder blunted blunter bluntest blunting bluntly bluntness blunts blur blurred blurring blurt
blushed blushes blushing bluster boa boar boardwalk boasted boastful boasting boasts bobbed bobbin
bobbing bobcat bobsled bobsledded bobsledding boded bodes bodice boding bodyguard bodywork
boisterous boldest boldness bolstered bolstering bolsters bombarded bombarding bombardment bombards
bondage bonfire boniest bonnets bony boo booby bookcase bookend bookkeeper bookkeeping bookmark
bookshelf bookworm boomerang boons boorish boors bootee booths booties bootleg bootlegged
bootlegging bootstrap bop borough bosom bossiest bossy botanical botanist botany botch bothersome
bottleneck bottomless boughs boulder boulevard boundless bountiful bounty bouquets bourgeoisie
boutique bovine bowel bowlegged boxcar boycott boyfriend boyhood boyish bra braced bracelet braces
bracing brackish brag braggart bragged bragging braid brainier brainiest brainless brainstorm
brainwash brainy braise brandied brandies brandish brandying brashest brassier brassiere brassiest
brassy brat bravado bravery bravest bravos brawl brawnier brawniest brawny brayed braying brays
brazened brazening brazens braziers breadth breadwinner breakable breakneck breakpoints
breakthrough breakwater breast breathless breathtaking breezier breeziest breezy brevity brewed
brewery brewing brews bribe bribery bricklayer bridal bridegrooms brides bridesmaid bridle
briefcase briefest brighten brilliance brimmed brimming brims brimstone brinier briniest briny
brisked briskest brisking briskly brisks bristled bristles bristling britches brittler brittlest
broached broaches broaching broadened broadening broadens broadest broadside brocade brochures
broil brokered brokering brokers bronchitis bronco bronze brooch brooded brooding broods brooked
broth brotherhood browbeat browbeaten brownest brownies brows bruise brunch brunettes brusque
brusquer brusquest brutality brute brutish bubblier bubbliest bubbly buckled buckling budded
buddies budding budged budges budging buds buffaloed buffaloes buffaloing buffed buffet buffing
buffoon buffs bugged buggier buggies buggiest bugging bugle buglers bulbous bulge bulkier bulkiest
bulky bulldog bulldogged bulldogging bulldoze bulldozer bullfight bullfrog bullied bully bum
bumblebee bummed bummer bummest bumming bumpier bumpiest bumpy bung bungalow bungle bungler bunion
bunked bunking bunks bunnies buns buoyancy buoyant buoyed buoying buoys burble burdensome
bureaucrat bureaucratic bureaus burgers burglar burglary burgle burial burlap burlier burliest
burnish burp burred burring burro burrowed burrowing bursar bushel bushier bushiest busied busier
busiest busily businessman businessmen businesswoman businesswomen bustled bustles bustling
busybody butchered butchering butchers butchery butlers butted buttercup butterflied butterfly
buttermilk butterscotch buttes butting buttock buttonhole buttress buxom buzz buzzards bygone
bystander byway cab cabaret cabbed cabbing cabin caboose cacao cache cackle cacti cactus cad caddie
caddying cadence cadets cafeteria cagier cagiest cajole calamities calcium calculi calf caliber
calibrate calibration calicoes calked calking calks callable calligraphy callous callus calmest
calmness calorie calve camaraderie camels cameo camouflage canals canaries cancellation candid
candidacy candied candies candled candles candlestick candling candor candying canine canister
canker canned cannery cannibal cannibalism cannier canniest cannoned cannoning cannons canoe canons
canopied canopy cantaloupe cantankerous canteen cantered cantering canvas canyon capably
capacitance capacitor capered capering capillary capitalization capitalize capitulate capped
capping caprices capricious capsize capsule caption captivate captive captivity captor caramel
carat caravan carbohydrate carburetor carcass carcinogenic cardiac cardigan cardinals carefree
carefuller carefullest carefulness carelessness caretaker cargoes caribou caricature carnage carnal
carnation carnival carnivore carnivorous caroled caroling carols carouse carped carpentered
carpentering carpenters carpentry carping carps carriageway carted cartel cartilage carting
cartographer cartography cartons cartoonist carts cartwheel carve cascade cashew cashier cashmere
casinos cask casket casserole castaway caste castigate castoff castrate casualty cataclysm
cataclysmic catapult cataract catastrophe catcall catchier catchiest catchment catchy catechism
categorical categorize caterpillar catfish catnap catnapped catnapping catnip catwalk caucus
cauliflower caulked caulking caulks causeway caustic cautious cavaliers cavalry cavern caviar
cavity cavort caw ceasefire ceaseless cede celebrity celery celestial celibacy celibate cellars
cellist cello cellophane cellulose cement cemetery censure census centennial centerpiece centimeter
centipede centralize centrifuge ceramic cereal cerebral ceremonial ceremonious certified certify
cervical cessation chafed chafes chaff chafing chagrin chainsaw chairmen chairperson chalets
chalice chalkier chalkiest chalky challengers chameleon champed champing championship champs
chandelier changeable chanted chanting chants chaperon chaplain chapped chapping characteristically
characterization characterize charcoal chargeable charger chariot charisma charismatic charitably
charlatan charred charring chasm chassis chaste chastened chastening chastens chaster chastest
chastise chastisement chatter chatterbox chattier chattiest chatty chauffeur chauvinist cheapen
cheapness checkout checkpoint checkup cheep cheerfuller cheerfullest cheerfulness cheerier
cheeriest cheery cheesecloth cheetah chef cherished cherishes cherishing cherries cherub cherubim
chewier chewiest chewy chic chicest chicks chide chiefest chieftain childbirth childlike chili
chilled chiller chillest chillier chilliest chilling chills chilly chimed chiming chimney chimp
chimpanzee chink chinned chinning chins chintz chipmunk chipped chipper chipping chiropractor chirp
chisel chivalrous chivalry chlorine chloroform chlorophyll choicer choicest choke cholera
cholesterol choosier choosiest choosy chopper choppier choppiest choppy chore choreographer
choreography chortle chowder chowed chowing chows christened christening christens chrome chromium
chromosome chronic chronically chronicle chronological chronology chrysanthemum chubbier chubbiest
chubby chuckle chug chugged chugging chummed chummier chummiest chumming chummy chums chunkier
chunkiest chunky churned churning churns chutes cigar cinch cinder cipher circuitous circulatory
circumcise circumcision circumference circumflex circumstantial circumvent circumvention circus
cistern citation citizenship citric citrus civic civility clacked clacking clacks clad clairvoyance
clairvoyant clamber clammed clammier clammiest clamming clammy clamor clamped clamping clamps clams
clandestine clang clank clans clapped clappers clapping claps claptrap claret clarinet clasp
classmate classroom classy clatter claustrophobia clawed clawing claws cleanlier cleanliest
cleanliness cleanse clearness cleat cleavage cleave cleavers clef cleft clemency clench clergy
clergyman clergymen cleric clerical clerked clerking clerks cleverness climactic climax clime
clinched clinches clinching cling clinked clinking clinks clipboard clitoris cloak clockwise
clockwork clod clogged clogging cloister closeness clot clothespin clotted clotting cloudburst
cloudier cloudiest cloudy clout clove cloven clovers clown clubbed clubbing clubhouse clucked
clucking clucks clueless clump clumsier clumsiest clumsily clumsiness clung clutch cluttered
cluttering clutters coagulate coagulation coalesce coalition coarsen coarseness coarser coarsest
coastal coastline coax cob cobalt cobra cobweb cocaine cock cockeyed cockier cockiest cockpit
cockroach cocktail cocky cocoa coconut cocoon cod codded coefficient coerce coercion coexist
coexistence coffers coffined coffining coffins cog cogency cogent cognac cognitive coherence coiled
coiling coils coinage coincidental colanders coldest coldness colic collaborate collaborative
collaborator collage collapsible collarbone collateral collation collector collegiate collide
collies collision colloquial colloquialism collusion colonels colonial colonization colonize
colorful colorless colossal colts comb combatant combustible combustion comeback comedian comelier
comeliest comestible comet comical commandant commandeer commando commemorate commemoration
commencement commend commendable commendation commerce commercialism commercialize commiserate
commiseration commodores commonest commonplace commonwealth commotion commune communicable
communicative communicator communion communique commutative commute commuter compactest compaction
companionship compartment compass compassionate compatriot complacency completer completest
complexion compliance compliant complied complimentary compost composure compulsive compunction
comrade comradeship concatenation concave concealment conceit concentric concession conciliate
conciliation conciseness conciser concisest conclusive concoct concoction concord concordance
concourse concurred concurrence concurrency concurrent concurring concussion condensation
condescend condiment condolence condominium condor conducive confection confederacy confederate
confederation conferred conferrer conferring confers confession confetti confidant confide
configurable confinement confiscate confiscation conformity confound confrontation congeal
congenial conglomerate congregate congregation congresses congressman congressmen congresswoman
congresswomen congruent conical conifer coniferous conjugal conjugate conjugation conjure
connective connectivity conned conning connoisseur connote conquer conqueror conquests
conscientious consecrate consequential conservatism conservatory conserve consign consignment
consolidate consolidation consonant consort consortium conspirator conspire constancy constellation
consternation constipation constrict constriction construe consul consular consulate consumable
consumerism consummate contagion contagious contaminate contamination contemplation contemplative
contemptible contemptuous contentment contestant contextual contiguous contingency contingent
contort contortion contraband contraceptive contraction contractor contractual contraption
contravene contributory contrite controllable convalesce convalescence convalescent convection
convene convent converge convergence conversant conversational convertible convex conveyance
convoluted convoy convulse convulsion convulsive coo cookbook coolest cooped cooperative cooping
coops coordinator cop copiers copious copped copperhead copulate copulation corals corded cordially
cordials cording cordless cordoned cordoning cordons corduroy corked corking corks corkscrew
corneas cornets cornflakes cornier corniest cornmeal cornstarch corny corollary coronary coronation
coroner corporals corps corpulent corpuscle corralled corralling corrals correctest corrective
correctness corrector corroborate corroboration corrode corrosion corrosive corruptest corruptible
corsage corset cortex cosmetic cosmonaut cosmopolitan cosmos costlier costliest costume cot cottage
cottontail cottonwood couched couches couching cougar councilor counselor countable countdown
countenance counteract counterattack counterbalance counterclockwise counterfeit countersign
countesses countrymen coupon coups courageous courteous courthouse courtroom courtship courtyard
covenant covertly coverts coves covet covetous cowardice cowardly cowards cowboys cowered cowering
cowgirl cowhide coyest coyote coziest cozily coziness crab crabbed crabbier crabbiest crabbing
crabby crackle crackpot cradled cradles cradling craftier craftiest craftily craftsman craftsmen
crafty crag craggier craggiest craggy crammed cramming crams cranberry craned cranes craning
cranium cranked crankier crankiest cranking cranks cranky crassest crated cratered cratering
craters crates crating crave crayfish crayon crazed crazes craziest crazily craziness crazing creak
creakier creakiest creaky creamier creamiest creamy creased creases creasing creativity credence
credential creditable creditor credulous creepier creepiest creepy cremate cremation crepe crept
crescendo crescent crested crestfallen cresting crests cretin cretinous crevasse crevice crib
cribbed cribbing crimson cringe crinkle cripple crises crispest crispy crisscross critique croaked
croaking croaks crocheted crocheting crochets crockery crocks crocodile crocus crony crookeder
crookedest crooking crooned crooning croons cropped cropping croquet crossbow crossest crosswalk
crotch crouched crouches crouching crowbar crowed crowing crows crucified crucifix crucifixion
crucify cruder crudest crudity cruelest cruiser crumbed crumbing crumbled crumbles crumblier
crumbliest crumbling crumbs crummier crummiest crummy crumple crunchy crusade crusader crust
crustacean crustier crustiest crusty crutches crux crybaby crypt crystallization crystallize cub
cubicle cucumber cuddle cued cuffed cuffing cuffs cuing cuisine culinary culled culling culls
culminate culmination culpable cultivate cultivation cunningest cupful cupped cupping cur curable
curator curbed curbing curbs curdle curds curfew curios curled currant curricula curried cursory
curtail curter curtest curtsied curtsy curvature cushion custodian custody customization customize
cutback cutest cuticle cutlery cutlet cutters cutthroat cyanide cybernetics cyclic cyclone
cylindrical cymbal cynicism cypresses cyst czars dab dabbed dabbing dabble dachshund daddy dads
daemon daffodil dagger daintier daintiest daintily dainty dairy daises daisies dallied dallies
dallying dammed damming damnedest dampen dampest dampness dams damsel dancers dandelion dandier
dandies dandiest dandruff dangle dank dankest dapperer dapperest daredevil darken darkest darn
darted darts dashboard dastardly daubed daubing daunted daunting dauntless daunts dawdle daybreak
daydream daze dazzle deacons deaden deadest deadlier deadliest deadlock deafest deafness dearest
dearths deathbed deaves debase debasement debauchery debilitate debility debit debonair debrief
debris debtor debunk debut decadence decadent decanter decapitate decease deceit deceitful deceive
decency decentralization decentralize deception deceptive decibel deciduous decimate decipher
decisive declension decoder decompose decomposition decorate decoration decorative decorator
decorous decorum decoy decreed decreeing decrees decrepit decried decry dedication deduct deductive
deepen deface defamation defamatory defame defeatist defecate defendant defenseless defensible
defer deference deferential deferred deferring defiance defiant deficient deficit defied defile
definable deflate deflation deflect deflection deform deformity defraud defrost deft deftest
defunct dehydrate deified deify deign deject dejection delectable delegate delegation deleterious
deli deliberation delicacy delicatessen delimit delinquency delinquent delirious delirium
deliverance deluded deludes deluding deluge deluxe delve demagogue demean demeanor dementia demerit
democrat demolition demon demonstrably demonstrative demonstrator demoralize demote demotion
demount demure demurer demurest den denial denigrate denim denomination denounce densest dental
dented denting dentistry dents denunciation deodorant deodorize depart dependable dependency depict
depiction deplete deplorable deplore deport deportation deportment depose depot deprave depravity
deprecate depreciate depreciation deprivation derail derailment derelict deride derision derivation
derricks descendant descent describable descriptor desecrate desecration desegregation designation
desirability desirous desist desolate desolation desperation despicable despondent despot despotic
desserts destabilize destinies destitute destitution detachable detachment detain detention
detergent deteriorate deterioration determinable determinism deterministic deterred deterring
detest dethrone detonate detonation detonator detour detriment detrimental devalue devastation
deviant deviate devolution devolve devotee devotion devour devout devoutest dexterity dexterous
diabetes diabetic diabolical diagnose diagrammed diagramming diametrically diamonds diaper
diaphragm diarrhea diatribe dictation dictatorial diction dietary differentiation diffuse diffusion
digestible digestion digestive digitize dignified dignify dignitary digress digression diked diking
dilapidated dilate dilation diligence diligent dilute dilution dime diminish diminutive dimmed
dimmest dimming dimpled dimples dimpling dinghy dingier dingiest dingy dinned dinosaur dins diocese
dioxide diphtheria diphthong diploma diplomacy diplomat diplomata diplomatically dipped dipping
directest directness direr direst dirge dirtied dirtier dirtiest disability disadvantageous
disagreeable disagreeably disallow disambiguate disappearance disapproval disapprove disarm
disarmament disarray disavow disband disbelief disbelieve disburse disbursement discern discernible
disciple disciplinarian disclaim disclose disclosure discolor discoloration discomfort disconcert
disconsolate discontent discontinuity discord discordant discouragement discourse discourteous
discourtesy discredit discreet discreetest discretionary discriminatory discus disdain disdainful
disembark disembarkation disenchantment disengage disentangle disfavor disfigure disgrace
disgraceful disgruntle dishearten dishonesty dishonor dishonorable dishwasher disillusion
disillusionment disincentive disinfect disinfectant disingenuous disinherit disintegrate
disintegration disinterested disjoint dislocate dislocation dislodge disloyal disloyalty dismantle
dismay dismember dismissal dismissive dismount disobedience disobedient disobey disown disparage
disparate disparity dispassionate dispatch dispel dispelled dispelling dispensary dispensation
dispense dispenser dispersal disperse dispersion displace displacement displease displeasure
dispossess disproportionate disprove disqualified disqualify disquiet disrepair disreputable
disrepute disrespect disrespectful disruptive dissatisfaction dissatisfied dissatisfy dissect
dissection disseminate dissemination dissension dissent disservice dissident dissimilarity
dissipate dissipation dissociate dissociation dissolute dissolution dissolve dissonance dissuade
distaste distend distill distillation distillery distinctest distinguishable distraction distraught
distributor distrust distrustful disuse dither ditties diverge divergence divergent diversified
diversify diversion divest dividend diviner divinest divinity divisible divisive divisor divulge
dizzied dizzier dizziest dizziness dizzy docile docked docking docks doctorate dodo doer dogged
doggerel dogging doghouse dogmatic dogwood doily doldrums doleful dolled dollies dolling dolls
dolphins domed domes domesticate domesticity domicile dominance domination doming dominions
dominoes donkey donor doodle doorman doormen doorstep doorway dope dopey dopier dopiest dormant
dormitory dorsal dos dote doubly dough doughnut dour dourest doused douses dousing doves dowdier
dowdies dowdiest downcast downfall downgrade downhearted downier downiest downpour downstream
downtown downward dowry doze drab drabber drabbest draconian draftier draftiest draftsman draftsmen
drafty dragonfly drainage dramatist dramatization dramatize draped drapery drapes draping
drawbridge drawl dreamier dreamiest dreamy drearier dreariest dredged dredges dredging dregs drench
dressier dressiest dressmaker dressy dribble driers driest driftwood drinkable driveway drizzle
droll drollest droned droning drool droop dropout droughts drowse drowsier drowsiest drowsiness
drowsy drudge drudgery drugged drugging druggist drugstore drummed drummers drumming drumstick
drunkard drunkenness drunkest dryness dualism dubbed dubbing duchess duckling duct dud dude dueled
dueling duels duets dugout dullest dullness dully dumbbell dumbest dumbfound dumpier dumpiest
dumpling dumpy dunce dune dunged dungeon dunging dungs dunked dunking dunno duo dupe duplex
duplicity durability durable duress dusk duskier duskiest dustier dustiest dustmen dustpan dutiful
duvet dwarf dwell dwelt dwindle dyed dyeing dyes dynamical dynamite dynamo dynasty dysentery
dyslexia eagerest eagerness earache eardrum earmark earnestly earnestness earnests earring earshot
earthier earthiest earthlier earthliest earthquake earthworm earthy easel easterlies eastward
easygoing eave eavesdrop eavesdropped eavesdropping ebb ebonies eccentricity ecclesiastical
eclectic eclipse ecologist economist economize ecosystem ecstasy ecstatic ecumenical eczema eddied
eddies eddying edger edgewise edgier edgiest edgy edible edict edifice editorship educator eel
eerie eerier eeriest effectual effeminate effervescent effigy effortless effusive egalitarian
eggplant egocentric egoism egotism egotist eigenvalue eighteenth eightieth eighty ejaculate
ejaculation eject ejection eked ekes eking elaboration elapse elastic elasticity elation elbow
eldest elective elector electrician electrified electrify electrocute electrocution electrode
electrolysis electromagnetic electrostatic elegance elegy elemental elevate elevation eleventh elf
elicit eligibility elimination elitism ellipse ellipsis elliptic elliptical elongate elope
elopement eloquence eloquent elucidate elude elusive elves email emanate emancipate emancipation
embalm embankment embargo embark embassy embellish embellishment ember embezzle embezzlement
embitter emblem embodied embodiment embody emboss embrace embroider embroidery embryo embryonic
emeralds emergence emergent emigrant emigrate emigration eminence emir emissary emission emitted
emitting emotive empathy emperors emphases emphatic emphatically emphysema emporium empower empress
emptier emptiest emptiness emulsion enact enactment enamel encapsulate encase enchant enchantment
encircle enclosure encompass encore encroach encrypted encryption encumber encumbrance encyclopedia
endanger endear endearment endemic endive endorse endorsement endowed endowing endowment endows
endurance endure endways enema energetic energetically enforcement engagement engender engrave
engraver engross engulf enigma enigmatic enlargement enlist enlistment enliven enmity enormity
enrage enrich enrichment enroll enrollment ensemble enshrine ensigns enslave ensue entangle
entanglement enthrall enthusiast enthusiastically entice enticement entomologist entomology
entrails entrant entrap entrapped entrapping entreat entreaty entrench entropy entrust entwine
enumerate enumeration enunciate enunciation envelop enviable envied envious environs envoy enzyme
eons epaulet ephemeral epidemic epidermis epilepsy epileptic epilogue epitaph epithet epitome epoch
epsilon equalize equanimity equator equatorial equestrian equilateral equine equinox equitable
equity equivalence equivocal eradicate erasure erect erection ergonomic erode erosion erotic errand
errant erratic erratically erstwhile erudite erupt eruption escalate escalation escalator escapade
escapism escorted escorting escorts esophagi esophagus especial espionage esteem estrangement etch
ether ethereal ethos etiquette etymological eulogize eulogy euphemism eureka euthanasia evacuate
evacuation evade evangelical evangelism evangelistic evangelists evaporate evaporation evasion
evasive evenest evenness eventful eventuality evergreen everlasting evermore evict eviction evilest
evocative evoke ewe exacerbate exactest exaggeration exalt exaltation exasperate exasperation
excavate excavation excel excelled excellence excelling excerpt excise excitable exclaim
excommunicate excommunication excrement excrete excruciating excursion excusable executor exemplary
exemplified exemplify exemption exert exertion exhale exhaustion exhilarate exhilaration exhort
exhortation exhume exile existent existential exodus exonerate exoneration exorbitant expandable
expanse expansive expatriate expectancy expectant expediency expedient expedite expel expelled
expelling expend expendable expiration expletive explicable explorer exponent exposition expound
expressive expulsion exquisite extemporaneous exterior exterminate extermination extinct extinguish
extol extolled extolling extort extortion extortionate extracurricular extradite extradition
extrapolate extrapolation extraterrestrial extravagance extravagant extremer extremest extremity
extricate extrovert exuberance exuberant exude exult exultant exultation eyeball eyebrow eyed
eyelash eyelid eyesore eyewitness fable fabricate fabrication fabulous facade faceless facet
facetious facial facile facsimile faction factorial factorization fad fade faggot fagot
faithfulness faithless falcons fallible fallout falsehood falser falsest falsetto falsification
falsified falsify falsity faltered faltering falters familiarize fanatic fanatical fancied fancier
fanciest fanciful fanfare fangs fanned fantasied fantastically faraway farmland fascination fascism
fashionably fasten fastidious fatalistic fatality fateful fatherhood fatherland fathom fatigue
fatten fatter fattest fattier fattiest fatty faultier faultiest faultless fauna favorably
favoritism fawned fawning fawns faze fearful fearless fearsome feasted feasting feasts feathered
featherier featheriest feathering feathery feces federalism federalist federation feebler feeblest
feign feint feline fellest fellowship felon felony feminine femininity feminism fen fended fending
fends ferment fermentation ferocious ferocity ferret ferried ferrying fertile fertility
fertilization fertilize fertilizer fervent fervor festered festering festers festive festivity
festoon feted fetid feting fetish fettered fettering fetus feud feudal feudalism feverish fez
fezzes fiasco fib fibbed fibber fibbing fiberglass fiche fickler ficklest fictitious fiddlers
fiddly fidelity fidget fidgety fiend fiendish fierceness fiercer fiercest fierier fieriest fiery
fiesta fifteenth fiftieth fig figment figurative figurehead filament filch filet fillet filly
filmier filmiest filmy filth filthier filthiest fin finale finalist finality financier finches
finesse fingernail fingerprint fingertip finickier finickiest finicky fir firearm firecracker
firefighter firefly firemen fireplace fireproof fireside firewood firmest firmness firmware
firsthand fishermen fishery fishier fishiest fishy fission fissure fist fitful fitness fitter
fittest fixable fixation fixture fizz fizzle flabbier flabbiest flabby flagpole flagrant flagship
flagstone flail flairs flak flakier flakiest flaky flamboyance flamboyant flamingo flammable
flanked flanking flanks flannel flap flapjack flapped flapping flare flashback flashest flashier
flashiest flashlight flashy flask flatted flattened flattening flattens flattered flatterer
flattering flatters flattest flatting flaunt flawless flea flecked flecking flecks fled fledged
fledgling flee fleece fleecier fleeciest fleecy fleetest fleshier fleshiest fleshy flex flexibly
flicked flickered flickering flickers flicking flicks flier fliest flightier flightiest flightless
flighty flimsier flimsiest flimsiness flimsy flinch flinging flings flints flippant flipper
flippest flirtation flirtatious flirted flirting flirts flit flitted flitting flocked flocking
flocks flog flogged flogging floodlight flop flopped floppier floppiest flopping floral florid
florist flossed flosses flossing flotilla flounce flounder flourish flout flowerier floweriest
flowery flu fluctuate flue fluency fluff fluffier fluffiest flukes flung flunk flunky fluorescent
flurried flurries flurrying flushest fluster flutist flutter flux flyover foal foamier foamiest
foamy focal fodder foe fogged foggier foggiest fogging foggy foghorn fogy foible foiled foiling
foils foist foliage folklore folksier folksiest folksy folly foment fondest fondle fondness
foodstuff foolhardier foolhardiest foolhardy foolishness foolproof footage foothill foothold
footlights footpath footprint footstep footstool footwear footwork forage foray forbear forbearance
forbore forborne forceful forceps forcible forded fording fords forearm forebode forefather
forefinger forefront forego foregone foreground forehead foreleg foremen foremost forensic foreplay
forerunner foresaw foresee foreseen foreshadow foresight foreskin forestall forestry foretaste
foretell forethought foretold forewarn forewent foreword forfeit forged forger forgery forges
forgetful forgetfulness forging forgiveness forgo forgone forlorn formality formalize formative
formidable formless formulate fornication forsake forsaken forsook forswear forswore forsworn
forthright forthwith fortieth fortification fortified fortify fortitude fortress fortuitous
forwardest forwent fossilize fostered fostering fosters foulest foundling foundry fount fourteenth
fowl foxed foxes foxier foxiest foxing foxy foyers fracas fractal fractional fracture fragility
fragmentary fragmentation fragrance fragrant frail frailest frailty franchise francs frankest
frankfurter frantically fraternal fraternity fraternize fraudulent fraught frayed fraying frays
freckle freehand freelance freest freezer freight frenzied frenzy frequentest freshen freshest
freshman freshmen freshness fretful frets fretted fretting friars friendlier friendliest
friendliness friezes frigate fright frightful frigid frigidity frill frillier frilliest frilly
frisked friskier friskiest frisking frisks frisky frittered frittering fritters frivolity frizzier
frizziest frizzy fro frocks frolic frolicked frolicking frond frontage frontal frontier frostbit
frostbite frostbitten frosted frostier frostiest frosting frosts frosty froth frothier frothiest
frothy frugal frugality fruitful fruitier fruitiest fruition fruitless fruity fugitive fulcrum
fulfillment fullness fumble fumigate fumigation fundamentalism fungi fungicide fungus funnel funner
funnest funnily furies furious furled furling furlongs furloughed furloughing furloughs furls
furnaces furnished furnishes furnishing furor furred furrier furriest furring furrowed furrowing
furrows furtive furtiveness fuselage fussier fussiest futility futuristic fuzz fuzzier fuzziest
gabbed gabbing gabs gadget gag gagged gagging gaiety gaily gainful gait gallantry gallants galled
galleries galleys galling gallivant gallons galloped galloping gallops gallows galls galore
galvanize gambit gambled gamblers gambling gamest gamut ganders gangling gangplank gangrene
gangster gangway gape garbed garbing garbs gardenia gargle gargoyle garish garlanded garlanding
garlands garlic garment garnets garnish garrets garrisoned garrisoning garrisons garrulous garters
gaseous gashed gashes gashing gasket gassed gassing gastric gaudiest gauge gaunter gauntest
gauntlet gavels gawk gawkier gawkiest gawky gayest gaze gazelle gazette geed geeing gees geese gel
gelatin geld gem genealogical genealogy generality generosity geneticist genial genies genii
genital gentiles gentility gentleness gentler gentlest gentries gents genuineness genus geographic
geological geologist geometric geranium gerbil germ germicide germinate germination gestation
gesticulate getaway geyser ghastlier ghastliest ghetto ghostlier ghostliest ghoul gibber gibe
giddier giddiest giddiness giddy gigantic gigged gigging giggle gild gilt gimme gimmick gingerbread
gingerly gingham ginned ginning giraffe girder girdle girlhood girlish girth gizzard glacial
glacier gladdened gladdening gladdens gladder gladdest gladiator glamorize glamorous glamour gland
glandular glare glassier glassiest glassware glassy glazed glazes glazing gleam glens glib glibber
glibbest glide glider glimmer glimpsed glimpses glimpsing glint glisten glitter gloat globe
globular globule gloom gloomier gloomiest gloomy gloried glorification glorified glorify glossary
glossed glosses glossier glossiest glossing glucose glum glummer glummest glut glutted glutting
glutton gluttony glycerin gnarl gnash gnat gnaw gnu goaded goading goads goalie goalkeeper goatee
gob gobbed gobbing gobbled gobbles gobbling goblet goblin godchild godchildren goddess godfather
godless godlier godliest godlike godmother godparent godsend goggle goldenest goldsmiths gondolas
goner gonged gonging gongs gonna gooey goof goofier goofiest goofy gooier gooiest goons goose
gopher gored gorge gorier goriest gorilla gosh goslings gossamer gouged gouges gouging goulash
gourds gourmet gout governess governmental grabber graceful graceless gracious graciousness
gradation grader gradient grafted grafting grafts gramophone grandchildren granddaughter grandest
grandeur grandiose grandparent grandson grandstand granite granny granola granular granule grape
grapefruit grapevine graphite grapple grasshopper grassier grassiest grassy grated graters
gratification gratified gratify grating gratitude gratuity graveled graveling gravels gravest
gravestone graveyard gravitate gravitation gravy grayest graze grease greasier greasiest greatness
greedier greediest greedily greediness greenback greenery greenest greenhorn greenhouses greeted
greeting greets gregarious gremlin grenade greyhound griddle gridiron grievance grieved grieving
grievous grille grimace grimier grimiest grimmest grimy grin grindstone grinned grinning gripe
gripped gripping grislier grisliest grisly gristle grits gritted grittier grittiest gritting gritty
grizzled grizzlier grizzliest grizzly grocer grocery groggier groggiest groggy groin groomed
grooming groove groovier grooviest groovy grope grossest grotesque grotto grouch grouchier
grouchiest grouchy groundless groundwork grouse grovel growl grub grubbed grubbier grubbiest
grubbing grubby grudge gruel gruesome gruesomer gruesomest gruff gruffest grumble grumpier
grumpiest grumpy grunt guarantor guardians gubernatorial guerrilla guessable guesswork guffaw
guidebook guilds guillotine guiltier guiltiest guiltily guiltless guises guitarist gulch gulled
gullet gullies gulls gulp gumdrop gummed gummier gummiest gumming gummy gumption gunfire gunman
gunmen gunned gunners gunpowder gunshot guppies gurgle guru gush gusted gustier gustiest gusting
gusts gusty gutted guzzle gym gymnasium gymnast gymnastics gynecologist gynecology gyrate gyration
gyroscope habitable habitat habitation habitual hackneyed hackneying hackneys hacksaw haddocks hag
haggle hailstones hairdo hairdresser hairier hairiest hairline haled haler halest halfway halibut
haling hallelujah hallmarked hallmarking hallmarks hallucination hallway haloed haloing halos
haltered haltering hamburgers hamlets hammocks hampered hampering hampers hamster hamstring
hamstrung handbag handcuff handedness handicapped handicapping handicraft handier handiest
handiwork handkerchief handlebar handmade handout handrail handshake handsomer handsomest
handwriting hangar hangout hanker haphazard hapless harangue harass harassment harbored harboring
harbors hardier hardiest hardliner hardwood harebrained hared harem hares harked harking harks
harlot harmonic harmonica harmonious harmonize harnessed harnesses harnessing harped harping
harpist harpoon harpsichord harried harrowed harrowing harrows harrying harshest harshness
harvested harvester harvesting harvests hasted hastes hastier hastiest hastily hatched hatches
hatchets hatching hateful hatted hatting haughtier haughtiest haughtily haughtiness haughty haul
haunt hawked haystack haywire hazardous haze hazels hazier haziest headfirst headier headiest
headlands headlight headlong headmaster headphone headquarter headrest headroom headstone
headstrong headway healed healer healing heals healthcare healthful healthier healthiest hearsay
hearse heartache heartbeat heartbreak heartbroken heartburn hearten heartfelt hearth heartier
heartiest heartless hearty heathen heave heavenlier heavenliest heaviness heavyweight heckled
hecklers heckles heckling hectic hedged hedgehog hedging heed heedless heftier heftiest heifer
heighten heinous heirloom heirs heliport helium hellish hemisphere hemlock hemmed hemoglobin
hemophilia hemorrhage hems hen henchman henchmen hepatitis heralded heralding heralds herbivorous
herbs hereabouts hereafter hereditary heredity herein heretic heretical herewith hermaphrodite
hermit hernia heroine heroism herons herpes hesitancy hesitant hesitation heterogeneous
heterosexuality heuristic hewed hewing hexagon hexagonal heyday hi hiatus hibernate hibernation
hiccup hickories hideaway hieroglyphic highbrow highlands hijack hike hiker hilarity hillbilly
hilliest hillside hilly hinder hindrance hinge hinterland hipped hipper hippest hippie hipping
hippopotamus hippy hissed hisses hissing histogram hitched hitches hitchhike hitchhiker hitching
hither hive hoarded hoarder hoarding hoards hoarse hoarseness hoarser hoarsest hoax hobbit hobble
hobbyhorse hobgoblin hobnob hobnobbed hobnobbing hobo hocked hocks hodgepodge hoed hoeing hogged
hogging hoisted hoisting hoists holdup holier holiest holiness hollered hollers hollies hollowest
holocaust holstered holstering holsters homage homeland homeless homelier homeliest homemade
homesick homesickness homespun homesteaded homesteading homesteads homeward homework homey
homicidal homicide homier homiest homogeneous homogenize homonym homophobic honed honestest
honeycomb honeymoon honeysuckle honing honk honorable hooded hooding hoodlum hoods hoodwink hoofed
hoofing hoofs hooped hooping hooray hooted hooter hooting hooves hop hopped hopscotch hormone
hornet hornier horniest horny horoscope horseback horseplay horsepower horseradish horseshoe
horticultural horticulture hosed hoses hosiery hosing hospitable hospitality hospitalization
hospitalize hostage hostel hostess hostility hotbed hothead hottest hound hourglass houseboat
housekeepers housewarming housewife housewives housework hovel hovered hovering hovers howl hub
hubbub huddled huddles huddling hued hues huffed huffier huffiest huffing huffs huffy hugest hugged
hugging hugs hulk hullabaloo hulled hulling hulls humanest humanism humanist humanitarian humanize
humbler humblest humbug humdrum humid humidified humidify humidity humiliate humiliation humility
hummed humming hummingbirds humorist hump hunch hunchback hundredth hungered hungering hungrier
hungriest hungrily hunk hurdled hurdles hurdling hurled hurling hurls hurrah hurricane hurried
hurtful hurtle hushed hushes hushing husked huskier huskies huskiest huskily huskiness husking
husks hustle hustler hutches hyacinths hybrid hydrant hydraulic hydroelectric hydroplane hyena
hygiene hygienic hymn hymnal hyperbole hypertension hyphenate hyphenation hypnosis hypnotic
hypnotism hypnotist hypnotize hypochondria hypochondriac hypotenuse hypotheses hypothesize hysteria
hysteric iceberg icebreaker iced icicle icier iciest icing icy idealist idealize identifiable
idiocy idiomatic idiosyncrasy idlest idly idolize idols idyllic ifs igloo ignite ignition iguana
ilk illegible illegibly illegitimate illicit illiteracy illuminate illumination illusory
illustrative illustrator illustrious imagery imaginable imbecile imitate imitation imitative
imitator immaculate immaterial immaturity immeasurable immeasurably immensity immerse immersion
immigrant immigrate immigration immobile immobilize immorality immortality immovable immunity
immunization immunize imp impairment impale impart impartial impartiality impassable impasse
impassioned impassive impatience impatient impeach impeccable impedance impede impediment impel
impelled impelling impenetrable imperceptible imperceptibly imperfection imperialism imperialist
imperil impersonate impersonation impertinence impertinent impervious impetuous impetus impinge
impish implacable implant implementable implicate implore impolite importation imposition
impossibility impossibly impostor impotence impotent impound impoverish imprecise impregnable
impregnate impressionable imprint imprisonment improbability improbably impromptu improper
impropriety improvisation improvise impudence impudent impulsive impunity impure impurer impurest
impurity inaction inactive inactivity inadequacy inadmissible inadvertent inadvisable inalienable
inaner inanest inanimate inapplicable inarticulate inasmuch inaudible inaugural inaugurate
inauguration inauspicious inborn inbred inbreed inbuilt incalculable incandescence incandescent
incantation incapacitate incapacity incarcerate incarceration incarnate incendiary incense
inception incessant incest incestuous incinerate incinerator incision incisive incisor incite
incitement incognito incoherence incomparable incompatibility incompatibly inconceivable
inconclusive incongruity incongruous inconsequential inconsiderable inconsiderate inconsolable
inconspicuous incorporation incorrigible incredulity incredulous incremental incriminate incubate
incubation incubator incumbent incurable indebted indecency indecent indecision indecisive
indefinable indelible indelibly indelicate indentation indescribable indestructible indices indict
indifference indifferent indigenous indigestible indigestion indignant indignation indignity indigo
indiscreet indiscretion indiscriminate indispensable indisposed indisputable indistinct
individualism individualist individuality indivisible indoctrinate indoctrination indolence
indolent indomitable indoor inducement induct indulgence indulgent industrialist industrialization
industrialize industrious inedible ineffectual inelegant ineligible inept ineptitude inert inertial
inescapable inexact inexcusable inexhaustible inexorable inexorably inexpensive inexperience
inexplicable inexplicably inextricably infamy infancy infantry infatuation infeasible infectious
inferno inferred inferring infertile infest infestation infidel infidelity infields infiltrate
infiltration infinitesimal infinitive infirm infirmary infirmity infix inflame inflammable
inflammation inflammatory inflatable inflate inflationary inflection influenza influx informality
informant informational infraction infrared infringe infuriate infuse infusion ingenuity ingest
ingrain ingratiate ingratitude inhale inhaler inhospitable inhuman inhumane inhumanity initiation
initiator injection injunction injurious inkier inkiest inkling inky inlaid inland inlay inlet
inmate inn innards innate innermost innkeeper innocuous innuendo innumerable inoculate inoculation
inoffensive inoperative inopportune inordinate inquest inquisition inquisitive ins insaner insanest
insanity insatiable inscribe inscription inscrutable insecticide insecurity insensitivity
inseparable insider insignia insignificance insincere insincerity insinuate insinuation insipid
insistent insolence insolent insoluble insolvency insolvent insomnia inspector instability
installment instantaneous instep instigate instigation instill instinctive institutional
institutionalize instructive instructor insubordinate insubordination insubstantial insufferable
insular insulate insulation insulator insulin insure insurer insurgent insurmountable insurrection
intangible intelligible intelligibly intenser intensest intensified intensify intercede intercept
interception interchange interchangeable intercom interconnect intercontinental interdependence
interdependent interject interjection interlock interloper interlude intermarriage intermarried
intermarry intermediary interment interminable interminably intermingle intermission intern
internet interplanetary interplay interpolation interpose interracial interred interring
interrogation interrogator intersect intersperse interstate interstellar intertwine interweave
interwove interwoven intestinal intestine intimacy intimation intimidate intimidation intolerable
intolerably intolerant intonation intoxicate intoxication intractable intramural intransitive
intravenous intrepid intricacy intricate intrigue introspective introvert intrude intruder
intrusion intrusive intuition inundate inundation invader invariable invariant invective inventive
inventoried inventory inversion invertebrate investigator investor inveterate invigorate invincible
invisibility invisibly invocation invoice involuntarily involuntary invulnerable inward iodine iota
irascible ire iridescence iridescent irises irk ironically irradiate irreconcilable irrefutable
irregular irregularity irrelevance irreparable irreplaceable irrepressible irreproachable
irresistible irresponsibility irretrievable irretrievably irreverence irreverent irreversible
irrevocable irrevocably irrigate irrigation irritability irritable irritably irritant isthmus
italic italicize itch itchier itchiest itchy itemize iterate iteration iterative itinerant
itinerary ivies ivories jab jabbed jabber jabbing jackal jackass jackdaw jackknife jackknives
jackpot jaded jades jading jagged jaggedest jaguar jalopy jamb jamboree jangle janitor jar jarring
jaundice jaunt jauntier jauntiest jauntily jaunty javelin jaw jawbone jays jaywalk jealousy jeer
jell jellied jellyfish jeopardize jeopardy jerkier jerkiest jerky jerseys jetted jetties jetting
jettison jeweled jeweler jeweling jewelry jibe jiffy jig jigged jigging jiggle jigsaw jilt jingle
jinx jitterier jitteriest jitters jittery jobbed jobbing jockey jocular jog jogged jogger jogging
joker jollied jollier jolliest jolt jostle jot jotted jotting journalism jovial joyful joyfuller
joyfullest joyous joystick jubilant jubilation jubilees judicial judiciary judicious judo jug
jugged juggernaut jugging juggle juggler jugular juicier juiciest juicy jumble jumbos jumpier
jumpiest jumpy juncture junipers junket junkie junta jurisdiction juror justest jut jute jutted
jutting juxtapose juxtaposition kaleidoscope kangaroo karat karate kayak keeled keenest keepsake
keg kenneled kenneling kennels kerchief kerosene ketchup keyhole keynote keystone khaki kickback
kickoff kidnapper kiln kilo kilobyte kilogram kilometer kilowatt kilt kimono kinda kindergarten
kindest kindled kindles kindlier kindliest kindling kinfolk kingfishers kink kinkier kinkiest kinky
kinship kiosk kitchenette kittens kitties kiwi knacker knacks knapsack knead kneecap kneecapped
kneecapping kneel knelt knickers knighthood knit knitted knitting knives knob knockout knolls knot
knotted knottier knottiest knotting knotty knowledgeable knuckle koala kosher kowtow kudos
laborious labyrinth laced lacerate laceration laces lacier laciest lacing lackluster lacquer laden
ladle ladybug ladylike laggard lagged lagging lagoon lairs lambda lambed lambs lamed lament
lamentable lamentation lames lamest lampoon lanced lances lancing landlady landlocked landmarks
landowner landslid landslide languid languish languor languorous lankier lankiest lanky lantern lap
lapel lapped lapse larceny larded larding lards larva larvae larynges laryngitis larynx lascivious
lashed lashes lashing lasses latched latches latching latent lateral latex lath lathered lathering
latitude latrine lattice laudable lauded lauding lauds laughable laughingstock launder laundries
laureate laurels lavenders lavish lavishest lawful lawmaker lawsuit laxative laxer laxest laxity
laymen lazied laziest leaden leafier leafiest leafy leakage leaky leanest leapfrog leapfrogged
leapfrogging leapt leased leases leashed leashes leashing leasing leathery lectern ledge ledgers
leeched leeches leeching leered leerier leeriest leering leers leery leeway leftest leftmost
legacies legalistic legality legalize legged legging legibility legibly legion legislate
legislative legislator legislature legitimacy legume lemonade lengthen lengthier lengthiest
lengthwise leniency lentil leopards leotard leper leprosy lesion lessened lessening lessens letdown
lethargic lethargy letterhead lettuce letup leukemia levees leverage levered levied levies levity
levying lewd lewdest lexical lexicon liar libelous liberalism liberalization liberalize liberate
liberation libertarian libretto lice lichen licked licking licks licorice lieutenant lifeboat
lifeforms lifeguard lifeless lifelike lifeline lifelong lifespan ligament ligature lighten
lighthouse lightness lightweight likable likelier likeliest liken likeness liker likest lilac
lilies lilt limbered limbering limed limelight limericks limestone limitless limousine limp limpest
linchpin lineage linefeed liners lingered lingerie lingering lingers lingoes linguist liniment
linoleum lioness lipstick liquefied liquefy liqueur liquidate liquidation listless litany literacy
lithe lither lithest lithium litigation litterbug littlest liturgical liturgy livable livelier
liveliest livelihood liveliness liven livestock livid lizard llama loadable loaf loam loath loathe
loathsome loaves lobbed lobbied lobbing lobbyist lobes lobotomy lobs lobster locale locality
localize lockets locksmith locomotion locomotive locusts lodger lofted loftier loftiest loftiness
lofting logarithm logarithmic logger logician loin loincloth loiter lolled lollipop lolls lonelier
loneliest loneliness lonesome longevity longhand longish longitude longitudinal longshoreman
longshoremen lookout loom loon loonie loonier looniest loony loosened loosening loosens looser
loosest loot lop lopped lopping lopsided losers lotion lottery lotus loudness loudspeaker lounge
louse lousier lousiest lovable lovelier loveliest loveliness lowdown lowlier lowliest loyalest
loyalty lozenge lubricant lubricate lubrication lucid luckier luckiest lucrative lug lugged lugging
lukewarm lullaby lulled lulling lulls lumber lumberjack luminary luminous lumpier lumpiest lumpy
lunacy lunar luncheon lunge lupine lurch lure lurid luscious lushes lushest lustier lustiest
lustrous luxuriant luxuriate luxurious lymph lymphatic lynched lynches lynching lyre lyrical m
macabre macaroni maced maces machete machinist macing mackerel macroscopic madam madame madcap
maddened maddening maddens madder maddest madhouse madman madmen maelstrom magenta maggot magician
magistrate magnanimity magnanimous magnate magnesium magnet magnetism magnetize magnificence
magnified magnify magnolias magnum magpie mahogany maids mailmen maim mainlands mainline mainstay
maintainability maintainable majestically majesty makeshift makeup maladies maladjusted malaria
malevolence malevolent malformed malice malign malignancy malignant mallards malleable mallets
malls malnutrition malpractice malt maltreat mama mamma mammal mammalian mammoth manacle manageable
managerial mandible mandolin maneuver mange mangers mangier mangiest mangoes mangrove mangy
manhandle manhole manhood maniac maniacal manic manicure manicurist manifest manifolded manifolding
manifolds manlier manliest manliness mannequin mannerism mannish manors mansion manslaughter
mantelpiece mantels mantled mantles mantling manure manuscript mapper marathon marbled marbles
marbling margarine marigold marijuana marinate mariners marionette maritime marketable marketplace
marksman marksmen marmalade marooned marooning maroons marquee marred marring marrows marshaled
marshaling marshals marshes marshier marshiest marshmallow marshy marsupial martial martyrdom
martyred martyring martyrs marveled marveling marvels mascara mascots masculine mashed mashes
mashing masochist masonry masons masquerade massacre massage masterful mastermind masterpiece
mastery masticate masts masturbation mat matador matchbook matchless matchmaker materialism
materialist materialistic materialize maternal maternity matriarch matriarchal matriculate
matriculation matrimonial matrimony matron matted matting mattress maturer maturest maturity mauled
mauling mauls mausoleum mauve maverick maximal maxims mayhem mayonnaise mealier mealiest meander
meanest measles measlier measliest measly measurable mechanize medallion medals meddle meddler
meddlesome mediated mediates mediating mediation mediator medicate medication medicinal mediocre
mediocrity meditate meditation medleys meekest meekly meekness megalomaniac megaphone megaton
melancholy mellowed mellower mellowest mellowing mellows melodic melodious melodrama melodramatic
melon membrane memento memoir memorably memorandum memorial memorize menace menagerie menial
menopause menstrual menstruate menstruation menthol mentor meow mercantile mercenary merchandise
merchants merciful merciless merest merger meridian meringue mermaid merrier merriest merrily
merriment mes mesdames mesh messengers messiest metabolic metabolism metallic metallurgy
metamorphose metamorphosis metaphorical metaphysical metaphysics mete meteor meteoric meteorite
meteorologist meteorology methodical methodology meticulous metropolis metropolitan mewed mewing
mezzanine microbe microbiology microcode microfiche microfilm micrometer microorganism microphone
microscope microscopic microsecond middleman middlemen midgets midriff midst midstream midsummer
midway midwife midwives mien mightier mightiest migraine migrant migratory miked miking mildest
mildew milestone militancy militant militarily militate militia milkier milkiest milkman milkmen
milky milligram millimeter milliners millinery millionaire millionth millisecond mime mimicked
mimicking mimicry minced mincemeat minces mincing mindbogglingly mindedness mindful minefield
mineral mingled mingles mingling miniature minibus minicomputer minimalism minions ministerial
ministry minnow minstrel minuet minuscule minuter minutest mirage mired miring mirth misadventure
misapprehension misappropriate misappropriation misbehave misbehavior miscarriage miscarried
miscarry miscellany mischief mischievous misconception misconduct misconstrue misdeed misdemeanor
misdirection miserly misers misfit misfitted misfitting misgiving mishap misinform misinformation
misinterpretation misjudge mislaid mislay mismanagement mismatch misnomer misquote
misrepresentation misshapen missionary missive misspell mistier mistiest mistletoe mistress
mistrust mistype mite mitigate mitt mittens mobbed mobbing mobility mobilization mobilize moccasins
mockery mockingbird modal moderator modernity modernization modernize modesty modicum modifier
modular modulate modulation moist moisten moistest moisture molar molasses moldier moldiest moldy
molest mollified mollify mollusk molted molten molting molts momentary momentous monarchy monastery
monastic monetarism monetary mongoose mongrel monies monogamous monogamy monogram monogrammed
monogramming monolithic monologue monopolize monorail monosyllable monotonically monotonous
monotony monsoon monstrosity monstrous monument monumental moo moodier moodiest moodily moonbeam
moonlight moored moorings moot mop mope mopped mopping moralist morass moratorium morbid morgue
morns moronic morose morphine morphology morsel mortar mortgage mortification mortified mortify
mortuary mosaic mosque mosquito mossier mossiest mossy motel moth mothball motherhood motif
motionless motleys motlier motliest motorbike motorcade motorcycle motorist motorize mounded
mounding mounds mountaineer mountainous mourn mournful mousier mousiest mousse mousy mouthful
mouthpiece movable mover mowed mowing mows ms mucous mucus muddied muddier muddiest muddy muffed
muffin muffing muffle muffler muffs mugged mugger muggier muggiest mugginess mugging muggy mulched
mulches mulching mules mulled mulls multi multinational multiplicative multiplicity multiprocessing
multitasking multitude mummified mummify mumps munched munches munching municipal municipality
mural murderous murkier murkiest murky murmur muscular mused muses mush mushier mushiest mushroom
mushy musing musk musket mussed mussels musses mussing mustaches mustang mustered mustering mustier
mustiest mutant mutate mutation mute muter mutest mutilate mutilation mutinied mutinous mutiny mutt
muzzle myopic myriad mystical mysticism mystified mystify mythological nabbed nabbing nabs nag
nagged nagging naiver naivest naivety nakedness namesake napalm nape napkin napped napping nappy
naps narcotic narrate narration narrator narrowness nasal nastily nastiness nationalism nationalist
nationalistic nationality nationalize nationwide nativity nattier nattiest natty naturalist
naturalization naturalize naturalness naught naughtier naughtiest naughtily naughtiness nausea
nauseate nauseous nautical navel navies navigable navigate navigation navigator nearsighted
nearsightedness neatest neatness nebula nebulae nebulous necessitate neckerchief necklace neckline
necktie necrophilia nectar nectarine needier neediest needlework negation neglectful negligee
negligence negligent negotiator neighborliness neighed neighing neighs neon neophyte nephews
nepotism nervousness nestled nestles nestling nether netted netting nettled nettling neurologist
neurology neuron neuroses neurosis neurotic neuter neutrality neutralize neutron newbie newborns
newfangled newsagents newscast newsier newsiest newsprint newsstand newsy newt nibble nicety niche
nicotine nieces niftier niftiest nifty nightclub nightclubbed nightclubbing nightfall nightgown
nightingales nightmarish nighttime nimble nimbler nimblest nimbly nincompoop nineteen nineteenth
ninetieth ninety ninny ninth nipped nippier nippiest nipping nipples nippy nips nit nitrate
nitrogen nitwit nobility nobleman noblemen nobler noblest noblewoman noblewomen nobly nocturnal nod
nodded nodding noes noiseless noisier noisiest noisily noisiness nomad nomadic nomenclature
nomination nominative nominee non nonchalance nonchalant noncommittal nonconformist nondescript
nonentity nonfiction nonflammable nonpartisan nonprofit nonresident nonsensical nonstandard nonstop
nontrivial nonviolence noodle nook noose northeast northeasterly northeastern northerly northward
northwest northwestern nosebleed nosier nosiest nostalgic nostril nosy notched notches notching
notebook noteworthy nothingness noticeboard notional notoriety nougat nourish nourishment novelist
noxious nozzle nuance nuclei nucleus nude nuder nudest nudge nudity nugget nullified nullify
numbness numerate numerator nuptial nursemaid nursery nurture nutcracker nutmeg nutrient nutriment
nutrition nutritional nutritious nutshell nutted nuttier nuttiest nutty nuzzle nylon nymph oaf
oases oasis oath oatmeal obedience obedient obelisk obese obesity obfuscation obituary objectivity
objector obligate oblique obliterate obliteration oblivion oblivious oblong oboe obscener obscenest
obscenity obscurer obscurest observable observance observant observatory obsessive obsolescence
obsolescent obstacle obstetrician obstetrics obstinacy obstinate obstruction obstructive obtrusive
obtuse obtuser obtusest occupancy occupant occupational oceanic oceanography octagon octagonal
octal octaves octopus ocular oddest oddity odes odious odometer odors offbeat offensiveness
officiate officious offload offshoot offshore offstage oftenest ogled ogling ogre oilier oiliest
oily ointment okay okra olfactory omelet omen ominous omnibus omnipotence omnipotent omnipresent
omniscient oncoming onerous onlooker onomatopoeia onrush onset onslaught onward oodles ooze opals
opaque opaquer opaquest openest openness operand operatic operative ophthalmologist ophthalmology
opinionated opium opossum opportune opportunist oppressive oppressor optician optima optimism
optimist optometrist opulent oracle orangutan oration orator oratory orchards orchestrate
orchestration orchid ordain ordeal ordinance ordinarily ordination organism organist organizational
orgasm orgy orifice originality ornament ornamental ornate ornithologist ornithology orphan
orphanage orthodontist orthogonal orthogonality orthography orthopedics oscillate oscillation
oscilloscope osmosis ostensible ostensibly ostentation ostentatious ostracize ostrich otters ounce
oust outbound outbreak outburst outcast outclass outdid outdistance outdo outdone outdoor outermost
outfield outfit outfitted outfitting outgrew outgrow outgrown outgrowth outhouses outlaid
outlandish outlast outlawed outlawing outlaws outlay outlet outlive outlying outmoded outnumber
outpatient outpost outputted outputting outran outrun outrunning outshine outshone outsider
outskirt outsmart outspoken outstation outstrip outstripped outstripping outward outwit outwitted
outwitting ova oval ovary ovation overate overbear overblown overboard overbore overborne
overburden overcasting overcasts overcharge overcoat overcrowd overdid overdo overdone overdose
overdraw overdrawn overdrew overeat overeaten overestimate overgrew overgrow overgrown overhand
overhang overhaul overhear overheard overheat overhung overkill overlaid overlain overlapped
overlapping overlay overpass overpopulation overpower overprint overran overrate overreact overrule
overrun overrunning oversampling oversaw oversee overseen overseer overshadow overshoot overshot
oversight oversimplification oversleep overslept overstate overstep overstepped overstepping overt
overtake overtaken overthrew overthrow overthrown overtook overture overturn overuse overweight
overwork overwrite overwrought ovum owl ox oxen oxidation oxide oxidize oysters pacemaker pacified
pacifism pacifist pacify pact paddies paddle paddocked paddocking paddocks padlock pagans pageant
pageantry pager pagination pagodas pail painfuller painfullest painstaking pajamas palatable palate
palatial paleontologist paleontology paler palest palette pallbearer palled pallid palling pallor
palls palmed palming palominos palpable palpably paltrier paltriest paltry pamper pamphlet panacea
pancaked pancakes pancaking pancreas pancreatic pandas pandemonium pandered pandering panders pangs
panhandle panhandler panicked panicking panicky panned panorama panoramic pansies panthers pantie
pantomime pantry papacy papal papaya paperweight paperwork paprika papyri papyrus parable parachute
paradigm paradoxical paraffin paragon parakeet paralyses paralysis paralytic paralyze paramount
paraphernalia paraplegic parasite parasitic parasol paratrooper parceled parceling parcels parch
parchments pardonable parentage parental parenthetical parenthood parishes parishioner parka
parkway parliamentary parlors parodied parole parred parring parsec parsnip parsonage partake
partaken partiality participation participle partied partisan partnership partook partridges pas
passable passageway passbook pasta pastels pasteurization pasteurize pastiche pastier pasties
pastiest pastime pastoral pastors pastry pasture patchwork patchy paternal paternalism paternity
pathetically pathological pathologist pathology pathos pathway patientest patio patriarch
patriarchal patrimony patriot patriotic patriotism patrol patrolled patrolling patronage patrons
patted pattered pattering patters patties patting paucity paunch paunchier paunchiest paunchy
pauper pave pavilion paw pawn pawnbroker payable payload payoff payroll peaceable peacemakers
peacocks pealed pealing pearled pearling pearls peas pebble pecan pecked pecking pecks peculiarity
pedagogy peddle peddler pedestal pediatrician pediatrics pedigree peeked peeking peeled peep
peerless peeve peevish pegged pegging pegs pelican pelleted pelleting pellets pelted pelting pelts
pelvic pelvis penal penalize penance penchant pendant pendulum penetrate penetration penicillin
peninsula penis penitence penitent penitentiary penknife penknives penmanship pennants penned
penniless pension pensive pentagon pentagonal penthouse penultimate peons peony pep pepped peppered
peppering peppermint pepping perceptible perceptive perchance perched perching percolate
percolation percolator percussion peremptory perennial perfectest perfectionist perforate
perforation perfume perfunctorily perfunctory peril perilous perimeter periodical periphery
periscope perishable perished perishes perishing perjure perjury perk perkier perkiest perky
permanence permeate permissive permutation pernicious peroxide perpendicular perpetrate perpetrator
perpetuate perplex perplexity persecution persecutor perseverance persevere persistence persona
personable personalize personification personified personify perspiration perspire persuasive
pertain perter pertest pertinent perturb perusal peruse pervade pervasive perversion pervert
peskier peskiest pesky pessimism pessimist pessimistic pest pestered pestering pesticide pestilence
petal petered petering petites petition petrified petrify petroleum petted petticoat pettier
pettiest pettiness petting petulant petunia pews pewter phantom pharmaceutical pharmacist pheasants
phenomenal philanthropic philanthropist philanthropy philosophize phlegmatic phobia phonetic
phonics phonied phonier phoniest phonograph phony phosphor phosphorescence phosphorescent
phosphorus photocopied photocopier photogenic photography photon photosynthesis phototypesetter
phraseology physician physiological physique pianist piccolos pickax picketed picketing pickets
pickier pickiest pickled pickling pickpocket pickups picky picnic picnicked picnicking pictorial
picturesque piddle piecemeal piecework pierced pierces piercing piers pigeonhole pigged pigging
piggish piggyback pigheaded pigment pigpen pigtail piked piking pilfer pilgrimage pilgrims pillage
pillars pillowcase pillowed pillowing pillows pimples pimplier pimpliest pimply pincushion
pineapple pinioned pinioning pinions pinkest pinnacle pinned pinning pinpoint pioneer pious piqued
piques piquing piracy piranha pirate pirouette pis pistachio pistol piston pitchfork piteous
pithier pithiest pithy pitied pitiful pitiless pittance pitted pitting pivot pivotal pixie placard
placate placement placenta placid plagiarism plagiarist plagiarize plaice plaid plainest plaintiff
plaintive planar planetarium planked planking planks plankton planner plantain plantation plaque
plasma plateau platinum platitude platoon platters plausibility plausibly playable playback playful
playfulness playhouse playmate playpen plaything playwright plazas plead pleasantest pleasantry
pleasurable pleat pledge plentiful plethora pliable pliant plied pliers plies plight plod plodded
plodding plop plopped plopping plow plucked plucking plucks plucky plumage plumbed plumbers
plumbing plumbs plumed plumes pluming plummet plumped plumper plumpest plumping plumps plums
plunder plunge plunger plurality plusher plushest plutonium plying plywood pneumatic pneumonia
poach pocketbook pockmark podded podding podium pods poetical poignancy poignant poinsettia poise
poisonous poker pokey pokier pokiest poky polarity polarization polarize polemic policemen
policewoman policewomen polios politer politest polkaed polkaing polkas pollinate pollination
pollster pollutant pollute polygamous polygamy polygon polyp polytechnic pomegranate pomp ponchos
pondered pondering ponderous ponders pontoon pony poodle poop popcorn poplars poppy popularize
populous porcelain porches porcupine pored pores poring pornographic porous porpoise porridge
portals portend portent portfolio porthole portico portlier portliest portrait portrayal positional
positivism possessive possessor possum postbox postcode posterior posterity postgraduate posthumous
postman postmark postmen postponement posture posy potassium potency potent pothole potion potted
pottered pottering pottery potting pouched pouches pouching poultry pounce pout powdery powerhouse
powerless powwow practicality practitioner pragmatism prairies praiseworthy pram prance prank
prattle prawn preamble precarious precautionary precinct precipice precipitate precipitation
precipitous preciser precisest preclude precocious preconceive preconception precursor predator
predatory predefined predestination predicament predicate predictably predictor predisposition
predominance predominant predominate preeminence preeminent preempt preen prefab prefabbed
prefabbing prefect preferential prehistoric prejudicial prelude premeditation premier premiere
premonition prenatal preoccupation preoccupied preoccupy prepaid preparatory prepay preponderance
preposition prepositional preposterous prerogative presentable preservation preservative preside
presidency presidential prestige prestigious presumption presumptuous presuppose pretense
pretension pretentiousness pretext prettied prettier prettiest pretzels prevalence preventable
preventive preyed preying preys priceless prick prickle pricklier prickliest pried priestess
priesthood primal primate primers primeval primly primmest primp primroses princesses principality
printable prism privater privatest privation privatize privier priviest privy probabilistic
probation probe problematic procedural procession processional proclamation procrastinate
procrastination procure procurement prod prodded prodding prodigal prodigious prodigy profane
profanity profess proffered proffering proffers proficiency proficient profiteer profoundest
profundity profuse profusion progeny prognoses prognosis progression progressive prohibition
prohibitive projectile projector proletarian proletariat proliferate prolific prologue promenade
prominence promiscuity promiscuous promontory promptest promptness proms promulgate prong
pronouncement proofread prop propagate propagation propel propelled propeller propelling propensity
properest prophecy prophesied prophesy prophetic proponent proportionality proportionate
propositional propped propping proprietor propriety propulsion prosecutor prospector prospectus
prospered prospering prosperity prosperous prospers prostitution prostrate protagonist protective
protector protestant proton protract protractor protrude protrusion proudest provable provably
provenance proverb proverbial provider provinces provincial proviso provocation prowess prowl proxy
prudes prudish prune prying psalm pseudonym psych psyche psychedelic psychiatric psychiatrist
psychiatry psychic psychoanalysis psychoanalyst psychopath psychoses psychosis psychotherapy
psychotic puberty puck puckered puckering puddle pudgier pudgiest pudgy pueblo puffed puffier
puffiest puffing puffs puffy pugnacious puke pulleys pullover pulmonary pulpit pulsate pulsation
pulverize pumas pumice pummeled pummeling pummels pumpernickel pumpkin punchline punctual
punctuality punctuate pundit pungent punier puniest punishable punitive punk punkest punned punning
puny pup pupped puppet pupping puppy purchaser puree purer purest purgatory purification purified
purify puritanical purpler purplest purport purposeful purr purse purveyor pus pushier pushiest
pushover pushy pussier pussiest pussy putative putrid puttied putties puttying pyramid pyre quack
quadrangle quadrant quadratic quadrilateral quadruped quadruple quadruplet quagmire quailed
quailing quaint quaintest quake qualitative qualm quandary quantifier quantify quantitative
quarantine quark quarrel quarrelsome quarried quarries quarrying quart quarterback quartet quartz
quash quaver quays queasier queasiest queasy queenlier queenliest queer queerest quell quench
queried quiche quicken quicksand quills quilt quinine quintessence quintet quintuplet quip quipped
quipping quirked quirking quirks quirky quitters quivered quivering quizzed quizzes quizzical
quizzing quorum quotient rabbi rabble rabies raccoon racetrack racier raciest racketeer racy radial
radiance radiant radiate radiator radii radioactive radioactivity radishes radium raffle raft
ragamuffin ragged raggedest ragging ragtime railings raincoat raindrop rainfall rainiest rainstorm
rainy raisins raked raking rallied rally ramble rambler ramification rammed rampage ramps ramrod
ramrodded ramrodding ramshackle ranched ranchers ranches ranching rancid rancor rancorous
randomness rankest rankle ransack ransomed ransoming ransoms rap rapidest rapidity rapist rapped
rapping rapport rapt rapture rapturous rarity rascal rashest raspberries rasped rasping rasps
raster ratification ratified ratify ration rationality rationalization rationalize ratted ratting
rattlers rattlesnake ratty raucous ravage raveled ravels ravened ravening ravenous ravine ravish
rawest rayon raze reactive readability readied readier readiest readiness readjust realest realism
realist realistically reallocate realty reamed reaming reaped reapers reaping reappear reaps
rearrangement reassurance rebate rebelled rebelling rebellion rebellious rebels rebind rebirth
reborn rebound rebuff rebuke rebut rebuttal rebutted rebutting recalcitrant recant recap recapped
recapping recapture recede recentest receptacle receptionist receptive recess recession recharge
rechargeable reciprocal reciprocate recital recitation recite recklessness reclamation recline
recluse recoil recollect recompense recompile reconciliation recondition reconfigure reconnaissance
reconnect reconstruct reconstruction recount recoup recourse recoverable recreate recreation rectal
rectors rectum recuperate recuperation recur recurred recurrence recurrent recurring reddened
reddening reddens reddest redeem redeemable redefinition redemption redesign redheads redid
redirection rediscover redistribute redistribution redoes redoing redone redraft redraw redress
reefed reefing reefs reeked reeking reelect reeled reeling referee refill refinement refinery
reflective reflector reflexive reformation reformatted reformatting refraction refreshment
refrigerate refrigeration refrigerator refuel refuge refugee refurbish refurbishment refutation
regale regalia regatta regenerate regeneration regent regimen regiment regimental registrar
registry regress regression regretful regrettable regularity regulate regurgitate rehabilitate
rehabilitation rehash rehearsal rehearse reimburse reimbursement reincarnate reincarnation reindeer
reined reinforce reinforcement reinstatement reiteration rejoice rejoin rejoinder rejuvenate
rejuvenation relaid relapse relational relativistic relaxation releasable relegate relent
relentless reliance reliant relics relinquish relish relive reload relocatable relocate remade
remake remedial remedied remembrance reminisce reminiscence remiss remission remit remittance
remitted remitting remnant remodel remorse remorseful remorseless remoter remotest removable
remunerate remuneration renaissance rendezvous renegade renege renewable renewal renounce renovate
renovation renown rental renunciation reopen reorganization reorganize repaid reparation repatriate
repay repayment repeal repel repelled repellent repelling repentance repentant repercussion
repetitious replay replenish replete replica replicate replication repose repository reprehensible
repressed represses repressing repression repressive reprieve reprimand reprint reprisal reproach
reproductive reprogram reprogrammed reprogramming reprove reptile republic republican repudiate
repudiation repugnance repugnant repulse repulsion reputable repute requiem requisition reroute
resale reschedule rescind rescuer resentful resentment reservoir reshuffle residential residual
residue resilience resilient resin resistant resistor resolute resolver resonance resonant resound
resourceful resourcefulness respectability respectably respectful respiration respirator
respiratory respite resplendent responsibly responsive restful restfuller restfullest restitution
restive restless restlessness restoration restraint restructure resubmit resubmitted resubmitting
resultant resumption resurface resurgence resurrect resuscitate resuscitation retaliate retaliation
retard retch retention rethink reticence reticent retina retorted retorting retorts retrace
retraction retreat retribution retriever retroactive retrograde retrospect retrospective retry
returnable retype reunion reunite rev revamp reveled reveler reveling revelry revengeful
reverberate reverberation revered reverence reverent reveres reverie reversal reversible reversion
revile revisit revival revive revoke revolutionize revolve revolver revue revulsion revved revving
rewind rework rhapsody rhetoric rheumatism rhino rhinoceros rhododendron rhubarb rhythmic rib
ribbed ribbing richness ricketier ricketiest rickety rickshaw ricochet riddance riddled riddling
ridged ridging ridicule rifer rifest rifle rift rig rigged rigging righteous righteousness rightest
rightful rightmost rightness rigidity rigor riled rimmed rimming rims rind ringleader ringlet
ringworm rinse riotous ripe ripen ripeness ripest riposte rippled ripples rippling risers riskier
riskiest rite rivalry riveted riveting rivets roaches roadblock roadside roamed roaming roams roar
roast robbed robber robbery robbing robed robing robs robustest robustness rockier rockiest rodent
rodeo rogues roguish romantically romped romping romps rooked rookie rooking roomier roomiest
roommate roomy roost rosary rosiest roster rostrum rotary rotisserie rotor rotted rottenest rotting
rotund rotundas rouged rouges roughage roughened roughening roughens roughest roughhouse roughness
rouging roundest roundness roused rouses rousing rowboat rowdier rowdiest rowdiness rowdy rubbed
rubbing rubble rubier rubies rubiest rubric rucksack ruckus rudders ruddier ruddiest rudeness
rudest rudimentary rueful rues ruffed ruffian ruffle ruffs rug rugby rugged ruggedest ruing ruinous
rum rumbled rumbles rumbling ruminate rummaged rummages rummaging rummest rummy rumpled rumples
rumpling runaway rundown rune runners runnier runniest runny runt runway rupture ruses rusted
rustic rustier rustiest rusting rustle rustler rusts rut ruthless ruthlessness rutted rutting
sabbatical sabers saboteur sac sacrament sacrificial sacrilege sacrilegious sadder saddest saddle
sadism sadist sadistic sadness safari safekeeping saffron sag sagebrush sagest sagged sagging
sailboat saintlier saintliest salable salad salami salesmen salespeople salesperson saleswoman
saleswomen salient salivate sallow sallowest salons saloon saltest saltier saltiest salty
salutation salute salvaged salvages salvaging salve sameness sampler sanatorium sanctified sanctify
sanctimonious sanction sanctity sanctuary sandal sandbag sandbagged sandbagging sandier sandiest
sandmen sandpaper sandstone sandstorm sanest sanitarium sanitary sanitation sanserif sap sapling
sapped sapphire sapping sarcastically sardine sash sassier sassiest sassy satanic satchels satin
satirical satirist satirize saturate saturation saucepan saucers sauciest saucy sauerkraut sauna
saunter sausage savaged savagely savager savagery savages savagest savaging savior savor savorier
savories savoriest savvied savvier savviest savvy sawdust saxophone scab scabbed scabbing scaffold
scalar scald scalier scaliest scallop scalp scalpel scaly scamper scandalize scandalous scant
scantest scantier scantiest scanty scapegoat scar scarcer scarcest scarcity scarecrow scarier
scariest scarred scarring scarves scary scathing scatterbrain scavenger scenic scent scepter
schemer schizophrenia schizophrenic scholarship scholastic schoolboy schoolchild schoolchildren
schoolteacher schooners scissor scoff scold scoop scoot scorch scorer scorn scornful scorpion
scoundrel scour scourge scout scowl scrabble scram scramble scrammed scramming scrapbook scratchier
scratchiest scratchy scrawl scrawnier scrawniest scrawny screech screwdriver screwier screwiest
screwy scribble scribe scriptures scriptwriter scrounge scrub scrubbed scrubbing scruff scruffier
scruffiest scruffy scruple scrupulous scrutinize scrutiny scuff scuffle sculptor sculpture scummed
scumming scurried scurries scurrilous scurrying scuttle scythe seafaring seafood seam seamstress
seaport searchlight seared seashell seashores seasick seasickness seaside seasonable seasonal
seaweed secede secession seclude seclusion secondarily secrecy secretarial secrete secretion
secretive securer securest sedan sedate sedater sedatest sedative sedentary sediment sedimentary
seduce seduction seductive seedier seediest seedling seedy seep seepage seer seesaw seethe
segmentation segregate segregation seize seizure selector selfishness selves semantically semblance
semester semicircle semicolon semiconductor semifinal seminary senates senator senile senility
seniority sensational sensationalism senseless sensibility sensors sensory sensual sensuality
sensuous sentience sentimentality sentry sepulcher sequencer sequins serenade serener serenest
serenity sergeants serpent serums serviceable serviceman servicemen serviette servile servitude
setback settable settlement settlers seventeen seventeenth seventy severances severer severest sew
sewage sewn sexism shabbier shabbiest shabbily shabby shackled shackles shackling shacks shadier
shadiest shadowier shadowiest shadowy shaft shaggier shaggiest shakier shakiest shallowest shamble
shameful shameless shammed shamming shampoo shamrock shanty shapelier shapeliest sharked sharking
sharks sharpen sharpest sharpness shatter shaved shaven shaves shaving shawls sheaf sheared sheath
sheathe sheave sheepish sheerest sheikhs shellfish shepherded shepherding shepherds sherbet
sheriffs sherries shied shielded shielding shies shiftier shiftiest shiftless shifty shimmer
shingle shinier shiniest shinned shinning shins shipment shipshape shipwreck shirked shirking
shirks shivered shivering shoal shod shoddier shoddiest shoddy shoelace shoestring shoo shopkeeper
shoplifter shopper shored shoring shortcoming shortfall shortlist shortness shotgun shotgunned
shotgunning shovel showcase showdown showier showiest showmen showy shrank shrapnel shred shredded
shredding shrew shrewd shrewdest shrewdness shriek shrill shrillest shrimp shrine shrink shrinkage
shrivel shroud shrub shrubbery shrug shrugged shrugging shrunk shrunken shucked shucking shucks
shudder shuffle shun shunned shunning shunt shuttered shuttering shuttle shyest shyness sibling
sickest sicklier sickliest sickness sideline sidelong sideshow sidestep sidestepped sidestepping
sidetrack sidewalk sidled sidling siege siesta sieved sieves sift sightless signified signify
signpost silentest silhouette silken silks silliness silo silt silversmiths silverware silvery
simile simmered simplex simplification simulator sincerer sincerest sincerity sinew sinewy singe
singularity sinned sinners sinus sip siphon sipped sipping sire sirens sirloin sissier sissiest
sissy sisterhood sitters sixpence sixteenth sixtieth sizable sizzle skate skateboard skater skein
skeptic skepticism sketchier sketchiest sketchy skew ski skid skidded skidding skillet skillful
skim skimmed skimming skimp skimpier skimpiest skimpy skinflint skinned skinnier skinniest skinning
skinny skippered skippering skippers skirmish skit skittish skulk skunk skylight skyline skyrocket
skyscraper slab slabbed slabbing slacked slacken slacker slackest slacking slacks slake slam
slammed slamming slander slant slap slapped slapping slapstick slat slaughtered slaughtering
slaughters slavery slavish slaying slays sleazier sleaziest sleazy sled sledded sledding
sledgehammer sleeked sleeker sleekest sleeking sleeks sleepier sleepiest sleepless sleepy sleeted
sleeting sleets sleeve sleeveless sleighed sleighing sleighs slender slenderest slew slicked
slickest slicking slicks slier sliest slime slimier slimiest slimmed slimmest slimming slimy sling
slingshot slink slipperier slipperiest slippers slipshod slit slither slitter slitting sliver slob
slobber slog slogged slogging slop slopped sloppier sloppiest slopping slosh sloth slothful slotted
slotting slouch slovenlier slovenliest slovenly slowness sludge slug slugged slugging sluggish
sluice slum slumber slummed slummer slumming slump slung slunk slur slurred slurring slush slut
slyly slyness smacked smacking smacks smallpox smartest smattering smear smellier smelliest smelt
smidgen smirk smite smithereens smitten smocked smocking smocks smog smokestack smokier smokiest
smoky smoldered smoldering smolders smoothest smoothness smote smother smudge smugger smuggest
smuggle smuggler smut snagged snagging snake snap snapped snappier snappiest snapping snappy
snapshot snared snares snaring snarl snatch sneakier sneakiest sneer sneeze snicker snidest sniffle
snip snipped snippet snipping snitch snob snobbish snooker snoop snootier snootiest snooty snooze
snore snorkel snort snot snout snowballed snowballing snowballs snowdrift snowfall snowflake
snowier snowiest snowplow snowstorm snowy snub snubbed snubbing snuff snug snugged snugger snuggest
snugging snuggle soak soapier soapiest soapy soar sob sobbed sobbing soberest sobriety soccer
sociable socialize sociological sociologist sociology sodas sodded sodden sodding sodium sodomy
sofa softball soften softest softness soggier soggiest soggy sojourn solace solemn solemnest
solemnity solicit solicitous solidarity solidest solidified solidify solidity solitaire solitary
solitude soloist soluble solvent somber someday somersault sonata sonic sonnet sonorous soot soothe
sootier sootiest sooty sop sophistication sophistry sophomore sopped sopping soprano sorcerer
sorceress sorcery sorer sorest sorority sorrier sorriest sorrowed sorrowful sorrowing sorrows sorta
soundest soundproof soured sourer sourest souring southeast southeastern southerlies southpaw
southwest southwestern souvenir sovereigns sovereignty sowed sowing sown sows spa spacecraft
spaceship spacial spacious spaded spades spading spaghetti spangled spangles spangling spaniels
spank spanned spanners spanning sparer sparest sparked sparking sparkled sparkler sparkles
sparkling sparred sparring sparrows spars sparse sparsest spasm spasmodic spat spate spatted
spatter spatting spatula spawn spay speared spearhead spearmint specialization specifier specious
specked specks spectacle spectator specters spectra speculative speculator speechless speedboat
speedier speediest speedometer spellbind spellbound spendthrift sperm spew spherical sphinx spiced
spices spicier spiciest spicing spicy spider spied spinach spinal spindlier spindliest spindly
spineless spinning spinster spiteful spitefuller spitefullest splash splat splatter spleen
splendidest splendor splice splint splintered splintering splurge spokesmen spokespeople
spokesperson spokeswoman spokeswomen sponge spongier spongiest spongy sponsorship spontaneity spook
spookier spookiest spooky spooned spoonful spooning spoons sporadic spores sporran sportsmanship
spotless spotlight spottier spottiest spotty spouse sprained spraining sprains sprawl spreadsheet
spree sprier spriest sprig springboard springier springiest springtime springy sprinkled sprinkler
sprinkling sprint sprouted sprouting sprouts spruced sprucer spruces sprucest sprucing spud spun
spunk spurn spurred spurring spurt sputter squabble squadron squalid squalidest squall squalor
squander squarer squarest squat squatted squatter squattest squatting squawk squeak squeakier
squeakiest squeaky squeal squeamish squelch squid squint squintest squired squiring squirm squirrel
squirt stab stabbed stabbing stabilize stablest stadium stag stagecoach stagnant stagnate
stagnation staid staidest stained staining stairway stalemate staler stalest stalk stallions
stalwart stamina stammered stammering stammers stampede stanch stanchest standardization standby
standoff standstill stanza stapled staplers stapling starboard starched starches starchier
starchiest starching starchy stardom starfish starkest starlight starrier starriest starvation
statelier stateliest statesman statesmanship statesmen stationery statistician statue stature
statute statutory staunch staunchest staved staving steadfast steadied steadier steadiest steak
stealth stealthier stealthiest stealthily stealthy steamier steamiest steamroller steamy steepest
steeple stellar stemmed stemming stench stenciled stenciling stencils stenographer stenography
stepladder sterilization sterilize sternest sternly sternness stethoscope stew stewarded stewardess
stewarding stewards stickier stickiest sticklers stiffen stiffest stiffness stifle stigma stigmata
stillborn stillest stillness stilted stimulant stimuli stimulus sting stingier stingiest stinginess
stingy stink stint stipulate stipulation stirrups stitched stitches stitching stockade stockbroker
stockholder stockier stockiest stockings stockpile stocky stockyard stodgier stodgiest stodgy
stoical stoked stoking stolid stolidest stomp stoniest stony stool stooped stooping stopgap
stopover stoppage stopper stopwatch storehouse storekeeper storeroom stormier stormiest stouter
stoutest stoves stowaway stowed stowing stows straddle straggle straggler straighten straightest
straitjacket straits stranded stranding strands strangeness strangle strangulation strap strapped
strapping strata stratagem stratified stratify stratosphere stratum strawberries streak streamline
streetcar strenuous stressful strew strewn stricken strictest strictness stridden strides striding
strikers stringier stringiest stringy stripe stripper striven strolled stroller strolling strolls
stronghold strove structuralist strummed strumming strums strung strut strutted strutting stub
stubbed stubbier stubbiest stubbing stubble stubborn stubbornest stud studded studding studentship
studious stuffier stuffiest stuffy stumped stumping stumps stung stunk stupefied stupefy stupendous
stupidest stupor sturdier sturdiest stutter stylish stylistic stylus suave suaver suavest subbed
subbing subcommittee subconscious subdivide subdivision subdue subgroup subjugate subjunctive
sublet subletting sublime sublimer sublimest submarine submerge submersion submissive subnormal
subordinate subprogram subs subscriber subscript subsection subservient subside subsidy subsist
subsistence substandard substantiate subsystem subterfuge subterranean subtler subtlest subtract
subtraction suburb suburban subversive subvert succinct succinctest succor succulent succumb suck
suckle suction suds suede suffocate suffocation suffrage sugarier sugariest sugary suggestive
suitcase suitors sulfur sulk sulkier sulkiest sulky sullener sullenest sultans sultrier sultriest
sultry summarily summit summon summonsed summonses summonsing sumptuous sunbathe sunburn sundae
sundial sundown sunflower sunglasses sunken sunlit sunned sunnier sunniest sunning sunscreen sunset
suntan suntanned suntanning sunup sup superbest supercomputer superhuman superimpose superintendent
superlative superscript supersede supersonic superstar superstition superstitious superstructure
supervisory supper supplant suppler supplest supportive supposition supremacy surcharge surer
surest surf surfboard surge surgeons surgical surlier surliest surly surmise surmount surpass
surplussed surplussing surreal surrender surreptitious surveillance surveyor survivor suspense
sustainable sustenance swabbed swabbing swabs swaggered swaggerer swaggering swaggers swampier
swampiest swampy swans swarmed swarming swarms swarthier swarthiest swarthy swat swathe swatted
swatting sway sweaty sweepstakes sweetened sweetening sweetens sweetest sweetheart sweetness
swelled sweller swellest swelling swells swerve swifter swiftest swiftly swifts swig swigged
swigging swill swindled swindlers swindles swindling swine swipe swirl swish swishest switchable
switchboard swivel swollen swoon swoop swordfish swung syllable syllabus symbolism symbolize
symmetrical sympathetically symphonic symptomatic synagogue synapse synchronization synchronize
synchronous synopses synopsis syntheses synthesize synthetic syphilis syringe syrup systematically
tabbed tabbing tabby tabernacle tablecloth tablespoon tablespoonful tablet tabloid taboo tabulate
tabulation tacit taciturn tackier tackiest tacky taco tact tactful tadpole tagged tagging tailgate
taillight tailspin taint takeoff takeover talc talisman talkative tallest tallied tallies tallow
tallying talon tambourine tameness tamest tamper tandem tangential tangerine tangible tangle
tangoed tangoing tangos tangs tankards tanned tannest tanning tans tantalize tantamount tantrum
tapered tapering tapestry tapped tapping tar tarantula tardier tardiest tardiness tariff tarnish
tarpaulin tarred tarried tarrier tarries tarriest tarrying tartan tartars tartest tarts tassel
tasteful tastier tastiest tasty tattle tattoo tatty taunt taut tautest tautology tavern tawdrier
tawdriest tawdry tawnier tawniest taxable taxicab teacup teak teammate teamster teamwork teardrop
tearful teased teases teasing teaspoon technicality technician tedium teeing teemed teeming teen
teetered teetering teethe teetotal telecommunications telegram telegraph telepathic telepathy
teletype televise telltale temperament temperamental temperance temperate tempests tempestuous
template tempo temporal tenable tenacious tenacity tenancy tenanted tenanting tenants tenderest
tenderize tenderness tendon tendril tenement tenet tenors tensest tensors tentacle tented tenting
tents tenuous tenure tepee tepid terminus termite terraced terraces terracing terrain terrestrial
terrier terrific territorial terrorize terseness terser tersest testable testament testicle
testified testify testimonial testimony testis tetanus tether textile texture thankless thatched
thatches thatching thaw theatrical theist thence theologian theoretic theorist theorize therapeutic
therapist thereon thereupon thermal thermodynamics thermometer thermostat thesauri thesaurus theta
thicken thickest thicket thigh thimble thinned thinner thinnest thinning thirstier thirstiest
thirsty thirteen thirteenth thirtieth thistles thongs thornier thorniest thorny thoroughbred
thoroughest thoughtful thoughtfulness thoughtless thousandth thrashed thrashes thrashing threadbare
thresh thrice thriftier thriftiest thrifts thrifty thrilled thriller thrilling thrills thrive throb
throbbed throbbing thrones throng throttle throwaway throwback thud thudded thudding thug thumbtack
thump thunder thunderbolt thunderous thunderstorm thunderstruck thwart thyme thyroid tiaras tickled
tickles tickling ticklish tidal tidbit tide tidier tidiest tiers tiffed tiffing tiffs tighten
tightest tightness tightrope tightwad tilde tilted tilting tilts timbered timbering timekeeper
timeless timelier timeliest timezone timid timidest timidity tinge tingled tingles tingling tings
tinier tiniest tinkered tinkering tinkers tinkled tinkles tinkling tinned tinnier tinniest tinning
tinny tinsel tint tipped tipsier tipsiest tipsy tiptoe tirade tiredest tireless tissue tit
titillate titter toadstool toboggan toddle toddler toed toenail toffee toga toil tolerable
tolerably tomahawk tombed tombing tomboy tombstone tomcat tonal tongs tonics tonnage tonnes
tonsillitis tonsils toolkit tooted toothache toothbrush toothpaste toothpick tooting toots topaz
topography topology topped topple torch torment tormentor tornado torpedo torque torrential
torrents torrid torso tortilla tortoise tortuous tot totalitarian totalitarianism totality totem
totted tottered tottering totters totting toucan touchdown touchier touchiest touchy toughen
toughest toughness toupee tournament tourniquet tousle touted touting touts towed towel towing
townspeople tows toxic toxin tract traction tractor trademark traders traditionalist trafficked
trafficking tragically trainee trait traitor traitorous tramped tramping trample trampoline tramps
trance tranquil tranquilest tranquility tranquilize tranquilizer transact transatlantic transcend
transcontinental transcribe transcription transferable transfusion transgress transgression
transistor transitional transitive transitory transliteration translucent transparency transpire
transplant transportable transportation transpose transverse trapdoor trapeze trapezoid trappers
trashier trashiest trashy trauma traumatic traumatize traversed traverses traversing travestied
travesty trawl treacherous treachery treacle treadmill treason treasurer treasury treatise treble
trekked trekking trellis trembled trembles trembling tremor trenched trenches trenching trendier
trendiest trepidation trespass trestle triangular tribal tribulation tribunal tributary tribute
trickery trickier trickiest trickle trickster tricycle trigonometry trilled trillion trills
trimester trimmed trimmest trimming trims trinket trios tripe triplets triplicate tripod tripped
tripping trite triter tritest triumphant triviality trod trolled trolling trolls trombone trophy
tropical trot trotted trotting troublemaker troublesome trough trounce trouped troupes trouping
trouts troweled troweling trowels truancy truant truce trudge truer truest truffle truism trumped
trumping truncation trustee trustful trustier trustiest trustworthier trustworthiest trustworthy
truthful truthfulness tryout tub tuba tuberculosis tubular tucked tucking tucks tufted tufting tug
tugged tugging tuition tulips tumble tumbler tummy tumor tumult tumultuous tuna tundra tuneful
tuners tunic turban turbine turbulence turbulent tureen turf turgid turkey turmoil turnaround
turnip turnout turnover turnpike turnstile turpentine turquoise turret turtleneck turtles tusk
tussle tuxedo twang tweak twee tweeted tweeting tweets tweezers twelfth twiddle twig twigged
twigging twilight twinge twinkle twinned twinning twirl twitch twitter tycoon typeface typescript
typesetter typhoid typhoon typhus typified typify typist typographic typographical tyrannical
tyrannize tyranny tyrant ubiquitous udder uglier ugliest ugliness ulcer ulterior ultimatum ultra
ultrasonic ultraviolet umpire umpteen unacceptably unaccepted unaccountable unaccountably
unadulterated unaltered unanimity unanimous unanswerable unanswered unarmed unassigned unassuming
unattached unattainable unattractive unbearably unbeatable unbecoming unbeliever unblock unborn
unbreakable unbroken unburden uncannier uncanniest uncanny unceasing unchallenged uncharitable
unchristian unclean uncleanest uncomfortably uncommonest uncompromising unconcerned unconditional
unconfirmed unconstitutional uncontrollable uncontrolled uncontroversial unconventional unconvinced
uncountable uncouth uncover uncultured uncut undamaged undaunted undecidable undecided undemocratic
undeniable undeniably underbrush undercover undercurrent undercut undercutting underdog underflow
underfoot undergarment undergrowth underhanded undermine undernourished underpants underpass
underprivileged underrate underscore undershirt underside understandably understate understatement
understudied understudy undertaker undertone undertow underwater underwear underweight underworld
underwrite underwritten underwrote undeserved undetected undeveloped undisturbed undoubted undress
undue undying unearth uneasier uneasiest uneasily uneasiness uneconomic uneconomical uneducated
unemployable unenlightened unequal unequivocal unerring unethical uneven uneventful unfailing
unfairest unfaithful unfasten unfavorable unfeasible unfeeling unfilled unfit unfitted unfitting
unfold unforeseen unforgettable unforgivable unfriendlier unfriendliest unfunny unfurl ungainlier
ungainliest ungainly ungodlier ungodliest ungodly ungrammatical ungrateful unhappier unhappiest
unhappily unhappiness unhealthier unhealthiest unheard unhook unicorn unicycle unidentified
unification uniformity unilateral unimaginative unimpressed uninformative uninformed uninhibited
uninitiated uninspired uninspiring unintelligent unintelligible unintended unintentional
uninterested unionize uniqueness uniquer uniquest unison unjust unjustifiable unkempt unkind
unkindest unkindlier unkindliest unlabeled unlawful unleash unlikelier unlikeliest unluckier
unluckiest unman unmanned unmanning unmarked unmarried unmask unmistakable unmistakably unmitigated
unmodified unmoved unnamed unnerve unnoticed unoccupied unoriginal unorthodox unpack unpaid
unparalleled unpick unpleasantness unpopularity unprecedented unprepared unprincipled unprintable
unprivileged unprotected unproven unprovoked unpublished unqualified unquestionable unquestionably
unravel unreal unreasonably unrecognized unrelenting unreliability unremarkable unrepeatable
unrepresentative unreservedly unresolved unrest unrestricted unrivaled unruffled unrulier unruliest
unruly unsafer unsafest unsaid unsanitary unsatisfied unsavory unsay unscathed unscheduled
unscientific unscrew unscrupulous unseasonable unseat unseemlier unseemliest unseemly unsettle
unsightlier unsightliest unsightly unsigned unskilled unsolved unsophisticated unsoundest
unspeakable unstructured unstuck unsubstantiated unsuited unsung unsupportable untangle untenable
unthinkable untidier untidiest untie untiring untold untouched untrained untruer untruest
untrustworthy untying unveil unwarranted unwary unwashed unwell unwieldier unwieldiest unwieldy
unwillingness unwind unwiser unwisest unwittingly unworthy unwound unwrap unwrapped unwrapping
unwritten upbeat upend upheaval upheld uphill upholding upholds upholster upholstery upkeep uplift
upload upped uppermost upping uprising uproar uproot upshot upstanding upstart upstream uptake
uptight uptown upturn uranium urbane urbanest urchin urinate urine urn uselessness ushered ushering
ushers usurp utensil uteri uterus utilitarian utilitarianism utilization utilize utmost utterance
vacant vacate vaccinate vaccination vaccine vacillate vacuous vagabond vagary vagina vaginae
vaginal vagrant vagueness vaguer vaguest vainest valentines valet valiant validate validation
valise valor valueless vampire vandalize vandals vanguard vanilla vanity vanned vanning vanquish
vapor vaporize varnish varsity vase vastest vastness vatted vatting vault veered veering veers
vegetarianism vegetation vehement veiled veiling veils velour velvety veneer venerate veneration
vengeance vengeful venison venom venomous vented ventilate ventilation ventilator venting ventricle
ventriloquist vents veracity veranda verbiage verbosity verged verging verier veriest veritable
vermin vernacular versatility vertebra vertebrae vertebrate vertices vertigo verve vested vestibule
vestige vesting vestment vests veteran veterinarian veterinary vetoed vetoes vetoing vetted vetting
vex vexation viability viaduct vials vibrant vibrate vibration vicarious victimize victorious
victors videotape vie vied vigilance vigilant vigils vigorous viler vilest vilified vilify villager
villain villainous villainy vindicate vindictive vineyards violas violets viper viral virginity
virile virility virtuoso virtuous virulent visa vised vises visibility visibly vising visionary
visitation visors vista visualize vitality vitamin vitriolic vivacious vivacity vivid vividest
vivisection vocalist vocation vocational vociferous vodka vogue volatile volcanic volcano volition
volley volleyball volt voluminous voluptuous voodoo voracious vortex vow voyage voyager vulgar
vulgarest vulgarity vulnerability vulture vying wad wadded waddled waddling wafers waft wag wagered
wagering wagged wagging wagons waif wail waist waistline waitress waive waiver waken walkout wallop
wallow wallpaper walnut walrus waltzed waltzes waltzing wane wanna wannest wanton warble wardens
wardrobe warfare warhead warier wariest warlike warmest warmth warpath warrantied warred warrens
warriors wart washable washcloth washout washroom wasps wastage wastebasket wasteland watchdog
watchful watchmen watchword watercolor waterfalls waterfront waterier wateriest waterlogged
watermark watermelon waterproof watershed watertight waterway waterworks watery waveform wavelength
wavered wavering wavers wavier waviest wavy waxed waxes waxier waxiest waxing waxy waylaid waylay
wayside wayward weaken weakest weakling wealthier wealthiest wean weaponry wearied wearier weariest
wearily weariness wearisome weave web webbed webbing wedder wedged wedges wedging weeded weedier
weediest weeding weeds weedy weep weer weest weightier weightiest weighty weirdest weirdness weirdo
welded welders welds welt weltered weltering wept werewolf werewolves westerly westward wettest
whacked whacking whacks whalers wharf wharves wheedle wheelbarrow wheelchair wheeze whereabouts
wherein wherewithal whet whetted whetting whew whiff whimper whimsical whine whinnied whinny whip
whipped whipping whir whirl whirlpool whirlwind whirred whirring whisk whiskered whiskys whisper
whitened whiteness whitening whitens whitest whitewash whittled whittles whittling whiz whizzed
whizzes whizzing whoa wholehearted wholesale wholesaler wholesome whopper whore wickedest
wickedness wicket widened widening widens widow wield wigged wigging wiggle wigs wigwam wildcat
wildcatted wildcatting wilderness wildest wildfire wildlife wildness wilier wiliest willful
willingness willows willpower wilted wilting wily winced winces winched winches winching wincing
windfall windier windiest windmill windowpane windpipe windscreen windshield winked winking winsome
winsomer winsomest wintertime wintrier wintriest wintry wiper wirier wiriest wiry wisecrack
wishbone wishful wisp wispier wispiest wispy wistful witchcraft withheld withhold withstand
withstood witless witticism wittier wittiest wiz wizened wobble wobblier wobbliest wobbly woe wok
wolves womanhood womankind womb wonderland woodchuck woodenest woodier woodies woodiest woodlands
woodpecker woodsman woodsmen woodwind woodwork wooed woof wooing woolens woollier woolliest woolly
woos wordier wordiest wordy workbench workbook workforce workmanship workmen workout workplace
worldlier worldliest wormhole worrisome worsen worthier worthiest wot wove woven wrangle wrangler
wreak wreathe wreaths wreckage wrenched wrenches wrenching wrest wrestle wrestler wretch
wretchedest wriggle wring wrinkled wrinkling wristwatch writ writable writhe wrongdoer wrongdoing
wrongest wrought wrung wryer wryest xenophobia xylophone yacht yak yakked yakking yams yank yapped
yapping yaps yardstick yarns yearlings yearn yeasts yelled yelling yellowest yells yelp yens yessed
yessing yew yodel yoga yogurt yoked yokels yokes yoking yolk yonder youngster youthful yowl yuck
zanier zaniest zany zeal zealous zebra zenith zest zeta zigzag zigzagged zigzagging zillion zinc
zincked zincking zip zipped zipper zipping zodiac zombie zoo zoological zoologist zoology zucchini
"""

"""Names missing from the 1990 US census lists: recent US names and common names worldwide.

Hand-written, accents stripped, lowercase. Hyphenated names are matched part by part, so only
their parts are listed.
"""

GIVEN_NAMES = """
aaliyah aarav abdul abdullah abena abhishek abimbola adebayo adeola aditi aditya adwoa agnieszka
ahmad aiden aigerim ainhoa akash akira akosua aleksandr aleksandra aleksei alessandra alessandro
alexei alexey amani amara amit amitabh anand ananya anastasia andrea andrei andrey anil anjali ankit
anupam anuradha aoife arash arjun arnav arturo arvind asha ashok astrid ayaan ayesha ayodele ayumi
azadeh babajide bartosz bashir bilal bjorn bogdan bongani bukola camila carmen cedric chidi chidinma
chinedu chinonso chinwe chioma chukwuemeka ciara ciaran dagny darius daniela dariusz deepak deepika
dieter dilip divya dmitri dmitry dorota ebere eilidh eitan elif emeka emine emre enrique esra
ewa farah fariba farid farzana fatemeh fatma femi fernanda fiachra fionnuala folake francesca
francesco francois friedrich fumiko gabriela gaurav gintaras giorgos giulia giulio gonzalo grzegorz
gunter gustavo hamid hamza haruka haruto hasan hideo hina hiroshi hiroko hitoshi hoang huda hussein
hyun ibrahim ifeoma igor ikechukwu ilse imran ines ingo irina irfan ishaan isabella itzel ivana
jakub jamal javier jaroslav jayden jiho jin jiwoo joao joaquin joerg jorg jurgen kaito kamal kamala
karim karthik kasia katarzyna kateryna kavya kazuki kemal kenji kenta khadija khalid kiran klaus
kofi krishna krzysztof kwabena kwame kwesi lakshmi lars laszlo leila liam lin lior lorenzo lucia
lukas luka lwazi madhu magdalena mahmoud makoto malgorzata manoj mariam marek marta marzena masato
mateo matteo mehmet mei mikhail milan milos minh mirela miroslav mohamed mohammad moshe muhammad
mustafa nadia naveen naoko natasha nikhil nikolai nikolaos nkechi nnamdi noor nur obinna oksana
olumide oluwaseun oluwatobi oren osagie oskar pablo pallavi paolo parisa parveen pawel piotr pooja
prakash pranav pradeep prasad priya priyanka radek radhika rahul rajesh rajiv rakesh ramesh ravi
reza rohan rohit ryo ryota sadia saanvi sakura sandeep sanjay santiago sanjeev saoirse satoshi
seo seung shashi shinji shreya shu shunsuke siddharth simran sinead siobhan sipho siddiqa sneha
soo sota sourav sriram stanislav subramanian sunil suresh svetla swati takashi takeshi taro tatiana
tatsuya tayo thabo thandiwe themba tiago tobias tomasz tomoko uchenna ulrich umar uwe vaibhav
valentina varun vasily venkat vijay vikram vinod viraj vivek vladimir vusumuzi wangari wojciech
wolfgang xavier xiaoming xiaoyu xin xochitl yael yaroslav yash yasmin yevgeny yiannis yohannes
yong yoshiko yousef yuka yusuf yuto zainab zanele zeynep zhiwei zoltan zofia
nate gabe zach nico viv nat olly alfie finn isla aria harper jaxon asher brayden kayden grayson
greyson nevaeh maddox zayden kinsley emery everly hadley quinn rowan sawyer declan kieran callum
rory niamh freya imogen orla eoin aarav vihaan reyansh ishaan aadhya anika kiara myra
ahmet ayse hatice emine meryem ozlem burak cem cenk murat huseyin ismail osman yusuf omer fatih
serkan volkan tolga onur ugur baris gokhan ozgur selin ebru gulsen gul sevgi tugba merve busra
kubra seda sibel derya aylin yasemin ece irem kerem berk eren arda kaan oguz cagla hakan levent
thanh huong linh hung tuan quang trang ngoc phuong hieu huyen thao nhung khanh
jolanta bozena halina krystyna urszula grazyna wieslaw zbigniew mieczyslaw kazimierz janusz
jerzy ryszard tadeusz andrzej wladyslaw boleslaw przemyslaw szymon wiktoria malgosia
"""

SURNAMES = """
abdullahi adeyemi afolabi agarwal akhtar al alfarsi alhassan alrashid alsayed amoah appiah
asante azikiwe babatunde banerjee barzani bhattacharya boateng chakraborty chatterjee chaudhry
chukwu dlamini eze ezeh farsi ferreira fofanah gonzalez hashemi hosseini ikeda iwu jovanovic
karimi khumalo kuznetsov kuznetsova kowalczyk kozlov kozlova mahlangu mbeki mehta mensah
mukherjee ndlovu nkosi nwachukwu nwosu obi odhiambo ogunleye okafor okeke okonkwo okoro olawale
oyelaran petrova popescu rahimi rezaei sadeghi shevchenko siddiqui sokolov sokolova tshabalala
venkatesan volkov volkova wojcik zielinski
yilmaz kaya demir sahin celik yildiz yildirim ozturk aydin ozdemir arslan dogan kilic aslan
cetin kara koc kurt ozkan simsek polat erdogan karaca korkmaz bulut gunes aksoy tekin ekinci
nguyen tran pham hoang huynh phan dang bui duong ngo trinh
nowak kowalski kowalska wisniewski wisniewska wojcik kaminski kaminska lewandowski
lewandowska zielinska szymanski szymanska wozniak dabrowski kozlowski jankowski mazur
krawczyk piotrowski grabowski pawlowski michalski
"""

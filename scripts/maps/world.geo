# World's provinces as on MILA's board, in longitude,latitude (degrees
# east, degrees north). scripts/natural-earth-maps.sh builds
# variants/world.shapes from Natural Earth's countries: each province is
# the countries its `country` line names; a country several provinces
# name is shared out by nearest `unit` or `seed` point, and so is the
# water among the seas. Format: scripts/maps/README.md. The board's
# neighbours are the truth and the borders serve them.

projection equirect 0               # plate carrée, the seam on the 180th meridian
view 0 -2.5 15.885                  # 7 canvas units a degree (before the magnifications)
canvas 2520 1225                    # 85°N to 90°S
country-data countries-50m.json
min-island 8
island-reach 8
simplify 2.0
warp 20 47 1.1 2600                 # Europe and the Black Sea magnified by up to 2.1
warp 64 39 0.7 1000                 # Central Asia
warp 44.5 41.8 0.5 400              # the Caucasus
warp 73 40.5 1.0 450                # Kyrgyzstan and Tajikistan
warp 31 0 0.5 700                   # the Great Lakes of Africa
warp -50 -27 0.4 900                # the south of Brazil and Uruguay
warp 90 24 0.5 600                  # Bangladesh
warp 174 -41 0.4 500                # New Zealand
warp 39 20 0.3 400                  # the Red Sea
warp -66 47 0.4 500                 # the Maritimes
warp -70 -23 0.3 500                # the north of Chile
warp 41 37 0.8 1300                 # Turkey, the Levant, the Caucasus and Mesopotamia
warp -71 19 0.9 600                 # Hispaniola, so that the Caribbean Islands hold a unit
warp 133 36 0.8 1100                # Korea and Japan
warp 121 13 0.7 900                 # the Philippines

# ---------------------------------------------------------------- Europe
country gbr "United Kingdom" Ireland "Isle of Man" Guernsey Jersey
unit gbr -1.8,53.2
centre gbr -0.1,51.5
country fra France Belgium Netherlands Luxembourg Monaco
unit fra 2.5,46.8
unit fra/nc 0.5,49.0
unit fra/sc 5.0,43.9
centre fra 2.35,48.85
country spa Spain Portugal Andorra
unit spa -4.0,40.0
country ger Germany Denmark Switzerland Liechtenstein
unit ger 10.0,51.0
centre ger 13.4,52.5
country ahu Austria Hungary Czechia Slovakia Slovenia Croatia "Bosnia and Herz."
unit ahu 17.5,47.8
country ita Italy "San Marino" Vatican Malta
unit ita 10.8,45.2
centre ita 12.5,41.9
country pol Poland
unit pol 19.3,52.2
country bst Lithuania Latvia Estonia
unit bst 24.8,56.6
country bel Belarus
unit bel 28.0,53.3
centre bel 27.6,53.9
country ukr Ukraine Moldova
unit ukr 31.5,49.0
centre ukr 30.5,50.4
country bal Romania Bulgaria Serbia Montenegro Kosovo Macedonia Albania Greece
unit bal 23.5,43.5
unit bal/ec 28.0,44.5
unit bal/sc 22.0,39.3
country trk Turkey Cyprus "N. Cyprus"
unit trk 34.0,39.0
# The Bosporus closed, so that the Black Sea does not meet the Mediterranean.
bridge 28.9,41.0 29.3,41.0 29.3,41.3 28.9,41.3
centre trk 29.0,41.0
country arm Armenia Georgia Azerbaijan
unit arm 44.5,41.0
country sca Norway Sweden Finland Åland Iceland "Faeroe Is."
unit sca 16.0,63.0
centre sca 18.1,59.3
# Russia, shared out by the points of its provinces
country stp Russia
unit stp 35.0,63.5
unit stp/nc 40.0,66.5
unit stp/sc 30.5,60.0
seed stp 50.0,65.5
centre stp 30.3,59.9
country mos Russia
unit mos 40.0,54.5
seed mos 40.0,46.0
centre mos 37.6,55.75
country wsi Russia
unit wsi 70.0,63.0
seed wsi 60.0,58.0
country oms Russia
unit oms 78.0,55.0
seed oms 85.0,54.0
country esi Russia
unit esi 100.0,65.0
seed esi 95.0,72.0
country irk Russia
unit irk 105.0,56.0
seed irk 115.0,52.0 95.0,53.0
country yak Russia
unit yak 130.0,63.0
unit yak/nc 130.0,70.5
unit yak/sc 141.0,59.5
seed yak 147.0,61.0 136.0,56.5
country kam Russia
unit kam 170.0,66.0
seed kam 159.0,56.0
country vla Russia
unit vla 134.0,48.5
seed vla 125.0,53.5

# ---------------------------------------------------------------- Asia
country kaz Kazakhstan
unit kaz 67.0,48.0
country uzb Uzbekistan
unit uzb 63.0,41.5
country tkm Turkmenistan
unit tkm 59.0,39.0
country kyr Kyrgyzstan
unit kyr 74.5,41.5
country taj Tajikistan
unit taj 70.8,38.6
country afg Afghanistan
unit afg 66.0,33.5
country ira Iran
unit ira 54.0,32.5
country irq Iraq Kuwait
unit irq 43.5,33.0
country syr Syria Lebanon
unit syr 38.5,35.0
name syr 34.6,34.6 offshore
country sar "Saudi Arabia" Jordan Israel Palestine Yemen Oman "United Arab Emirates" Qatar Bahrain
unit sar 45.0,23.5
unit sar/nc 35.0,31.4
unit sar/sc 45.0,16.5
country pak Pakistan
unit pak 69.0,29.0
country del India Nepal
unit del 78.0,27.0
centre del 77.2,28.6
country bom India "Sri Lanka"
unit bom 76.0,17.0
seed bom 78.5,11.0 72.5,23.5
centre bom 72.9,19.1
country clc India Bhutan
unit clc 86.5,23.3
centre clc 88.4,22.6
country ban Bangladesh
part ban India 93.5,26.3 95.5,27.8   # and the north-east of India, which meets Burma and China
unit ban 90.2,23.8
country wch China
unit wch 85.0,41.0
seed wch 97.0,40.5 78.0,37.0
country tib China
unit tib 87.0,32.0
country lan China
unit lan 103.0,34.0
seed lan 100.5,25.0
seed lan 94.0,29.5
country imo China
unit imo 112.0,42.5
seed imo 119.0,48.5
seed imo 105.0,40.5
country hei China
unit hei 127.5,46.5
country bei China
unit bei 115.5,38.0
seed bei 122.5,41.5
country sha China
unit sha 116.0,30.5
country gua China Taiwan "Hong Kong" Macao
unit gua 111.0,24.0
country mng Mongolia
part mng Russia 88.0,50.5             # the Altai Republic, so that Mongolia meets Kazakhstan
unit mng 103.0,46.5
country kor "North Korea" "South Korea"
unit kor 127.5,37.5
country jap Japan
part jap Russia 150.0,46.0           # the Kurils
# The Tsugaru Strait closed, so that the Sea of Japan meets the Pacific only round Kyushu.
bridge 140.0,41.15 141.3,41.15 141.3,41.6 140.0,41.6
# The Kanmon Strait closed too: the Inland Sea is the Pacific's.
bridge 130.8,33.85 131.1,33.85 131.1,34.05 130.8,34.05
unit jap 139.5,36.5
country bur Myanmar Laos
unit bur 96.0,20.5
country tha Thailand Malaysia Singapore
unit tha 101.0,15.5
country vie Vietnam Cambodia
unit vie 105.5,12.5
seed vie 105.5,19.5
country ind Indonesia Malaysia Brunei "Timor-Leste" "Papua New Guinea"
# The Makassar Strait closed at its north end, so that the Java Sea does not meet the West Pacific.
bridge 117.8,0.4 120.6,0.4 120.6,1.0 117.8,1.0
unit ind 113.5,-1.0
seed ind 102.0,-1.0
seed ind 138.0,-4.5
country phi Philippines
unit phi 122.0,16.5

# ---------------------------------------------------------------- Africa
country egy Egypt
unit egy 29.5,26.5
centre egy 31.2,30.0
country lib Libya Tunisia
unit lib 16.0,27.5
country alg Algeria
unit alg 3.0,28.0
country mor Morocco "W. Sahara"
unit mor -6.5,32.0
country mau Mauritania Senegal Gambia "W. Sahara"
unit mau -11.0,20.0
seed mau -14.0,23.0
country gui Guinea "Guinea-Bissau" "Sierra Leone" Liberia
unit gui -10.5,9.5
country gha Ghana "Côte d'Ivoire" Togo "Burkina Faso"
unit gha -3.0,9.5
country mal Mali
unit mal -2.0,17.0
country ngr Niger
unit ngr 9.0,17.0
country nga Nigeria Benin
unit nga 8.0,9.5
country cha Chad
unit cha 18.5,15.5
country nsu Sudan
unit nsu 31.0,17.5
seed nsu 24.0,16.5
country ssu Sudan "S. Sudan"
unit ssu 30.0,8.0
seed ssu 24.0,10.5
country eth Ethiopia Eritrea Djibouti
unit eth 39.5,9.5
country som Somalia Somaliland
unit som 46.0,7.0
country cam Cameroon "Eq. Guinea"
unit cam 12.5,5.0
country car "Central African Rep."
unit car 20.5,6.5
country con Congo Gabon
unit con 13.5,-0.5
country zai "Dem. Rep. Congo" Rwanda Burundi
unit zai 23.5,-2.5
country ang Angola "Dem. Rep. Congo"
unit ang 17.5,-12.0
seed ang 12.5,-5.8
country uga Uganda
unit uga 32.5,1.5
country ken Kenya
unit ken 37.8,0.5
country tan Tanzania
unit tan 34.5,-6.5
country zam Zambia Malawi
unit zam 27.0,-14.0
country moz Mozambique
unit moz 37.0,-15.5
country zim Zimbabwe
unit zim 29.8,-19.0
country bot Botswana
unit bot 24.0,-22.5
seed bot 24.0,-19.5 26.0,-19.5
# The Chobe, so that Namibia meets Zimbabwe and Botswana does not meet Zambia at Kazungula.
part nam Botswana 25.3,-17.9
country nam Namibia
unit nam 17.5,-22.0
country saf "South Africa" Lesotho eSwatini
unit saf 25.0,-29.5
country mad Madagascar France Comoros
unit mad 46.8,-19.5

# ---------------------------------------------------------------- America
country ala "United States of America"
unit ala -152.0,64.5
country yte "United States of America" Canada
unit yte -135.0,63.5
unit yte/nc -139.0,69.0
unit yte/sc -135.0,58.5
country bco Canada
unit bco -124.0,54.5
country alb Canada
unit alb -114.0,55.0
country sas Canada
unit sas -106.0,54.0
country man Canada
unit man -97.5,55.0
country ont Canada
unit ont -86.0,50.0
country qbc Canada
unit qbc -72.0,51.0
unit qbc/nc -77.0,56.5
unit qbc/sc -66.5,47.3
country new Canada "St. Pierre and Miquelon"
unit new -62.0,53.5
seed new -56.0,48.8
country nwt Canada
unit nwt -112.0,64.0
seed nwt -95.0,64.0
country bis Canada
# The Fury and Hecla and Bellot straits widened: Baffin and Somerset islands do not touch the mainland.
cut -86.5,69.55 -80.5,69.55 -80.5,70.05 -86.5,70.05
cut -95.5,71.8 -93.0,71.8 -93.0,72.15 -95.5,72.15
unit bis -72.0,69.5
seed bis -90.0,76.0
country thu Greenland
unit thu -45.0,78.0
country god Greenland
unit god -45.0,66.0
country ite "United States of America"
unit ite -115.0,45.5
country clf "United States of America"
# Hawaii, far from any province of the United States, belongs to none.
neutral Hawaii -155.5,19.6
unit clf -120.5,38.0
country nev "United States of America"
unit nev -110.0,36.5
seed nev -98.0,35.5
country mid "United States of America"
unit mid -93.0,43.0
country tex "United States of America"
unit tex -99.0,31.0
country dso "United States of America"
unit dso -88.0,33.0
seed dso -86.0,35.8
country flo "United States of America"
unit flo -82.0,30.5
country uni "United States of America"
unit uni -77.0,41.0
seed uni -79.5,37.0
country mnt Mexico
unit mnt -106.0,27.5
seed mnt -99.0,25.5
unit mnt/ec -99.0,24.5
unit mnt/wc -110.5,28.5
country mex Mexico
unit mex -99.0,19.0
unit mex/ec -96.5,18.5
unit mex/wc -101.0,18.5
country cen Guatemala Belize Honduras "El Salvador" Nicaragua "Costa Rica" Panama
unit cen -86.0,13.5
country cis Cuba Jamaica Haiti "Dominican Rep." "Puerto Rico" Bahamas "Turks and Caicos Is." "Cayman Is." France Netherlands
unit cis -71.0,19.1
country col Colombia
unit col -73.5,4.5
unit col/nc -74.0,9.0
unit col/wc -76.5,4.5
country ven Venezuela "Trinidad and Tobago"
unit ven -66.0,7.0
country guy Guyana Suriname France
unit guy -57.0,4.5
country per Peru Ecuador
unit per -76.0,-9.0
country bol Bolivia
unit bol -65.0,-17.0
country chi Chile
unit chi -69.6,-22.5
country men Argentina
unit men -64.0,-29.0
seed men -69.0,-36.5
country bai Argentina
unit bai -61.0,-36.5
seed bai -65.0,-40.0
country scr Argentina "Falkland Is."
unit scr -69.0,-47.0
country ura Uruguay
unit ura -56.0,-32.8
name ura -53.0,-35.8 offshore
country ama Brazil
unit ama -66.0,-5.0
seed ama -63.0,-10.0 -66.0,0.5 -69.0,-1.0
country bra Brazil
unit bra -53.0,-12.0
seed bra -61.0,2.5 -55.0,-4.0 -48.0,-19.0
country rec Brazil
unit rec -42.0,-5.5
seed rec -52.0,-1.0
country sal Brazil
unit sal -40.5,-12.0
seed sal -39.8,-16.5
country bho Brazil
unit bho -44.0,-17.0
country rdj Brazil
unit rdj -43.0,-22.0
name rdj -41.5,-24.5 offshore
seed rdj -41.0,-20.0 -44.5,-23.0
country sao Brazil Paraguay
unit sao -51.0,-25.0
seed sao -48.5,-26.0

# ---------------------------------------------------------------- Oceania
country wau Australia
unit wau 121.0,-25.0
country nte Australia
unit nte 133.0,-18.0
country qsl Australia
unit qsl 144.0,-22.0
country sau Australia
unit sau 135.0,-30.5
country nsw Australia
unit nsw 147.0,-32.0
country vic Australia
unit vic 144.0,-37.3
country nze "New Zealand"
unit nze 175.6,-39.2

# ---------------------------------------------------------------- Antarctica
# Along the coast from the west: Marie Byrd Land, the British territory
# round the Peninsula's base, Sanae, Novolazarevskaya, Syowa, Mawson,
# Vostok (round Casey), Casey, Dumont d'Urville, Leningradskaya, the Ross
# Ice Shelf; behind them the Norwegian Dependency (east) and the South
# Pole (west), meeting under the British territory and Leningradskaya.
country ape Antarctica
unit ape -66.0,-71.0
country bat Antarctica
unit bat -45.0,-80.0
unit bat/ec -40.0,-78.5
unit bat/wc -78.0,-74.5
seed bat -72.0,-78.5
seed bat -62.0,-78.0
seed bat -25.0,-80.0 -45.0,-84.5 -20.0,-84.5
country san Antarctica
unit san -3.0,-73.0
seed san -3.0,-80.0 -3.0,-84.5
country nov Antarctica
unit nov 15.0,-72.5
seed nov 15.0,-80.0 15.0,-84.5
country sho Antarctica
unit sho 40.0,-71.5
seed sho 40.0,-80.0 40.0,-84.5
country maw Antarctica
unit maw 63.0,-71.0
seed maw 63.0,-80.0 63.0,-84.5
country vos Antarctica
unit vos 88.0,-71.0
seed vos 88.0,-80.0 88.0,-84.5 112.0,-80.0 112.0,-84.5
country cas Antarctica
unit cas 112.0,-69.8
country dmv Antarctica
unit dmv 138.0,-71.0
seed dmv 138.0,-80.0 138.0,-84.5
country len Antarctica
unit len 158.0,-73.5
seed len 158.0,-80.0 158.0,-84.5
country ris Antarctica
unit ris 172.0,-81.5
seed ris -178.0,-81.0 170.0,-84.5 -178.0,-84.5 -160.0,-81.0 -160.0,-84.5
country mbl Antarctica
unit mbl -120.0,-77.0
seed mbl -100.0,-78.0 -140.0,-80.0 -120.0,-84.5 -100.0,-84.5
country nde Antarctica
unit nde 60.0,-88.2
country sop Antarctica
unit sop -110.0,-88.2
centre sop -104.0,-88.4
# A row of points under each coastal province and a row along the pole
# keep the border between them straight.
seed bat -78,-84.3 -75,-84.3 -72,-84.3 -69,-84.3 -66,-84.3 -63,-84.3 -60,-84.3 -57,-84.3 -54,-84.3 -51,-84.3 -48,-84.3 -45,-84.3 -42,-84.3 -39,-84.3 -36,-84.3 -33,-84.3 -30,-84.3 -27,-84.3 -24,-84.3
seed san -19,-84.3 -16,-84.3 -13,-84.3 -10,-84.3 -7,-84.3 -4,-84.3 -1,-84.3 2,-84.3 5,-84.3
seed nov 8,-84.3 11,-84.3 14,-84.3 17,-84.3 20,-84.3 23,-84.3 26,-84.3
seed sho 29,-84.3 32,-84.3 35,-84.3 38,-84.3 41,-84.3 44,-84.3 47,-84.3 50,-84.3
seed maw 53,-84.3 56,-84.3 59,-84.3 62,-84.3 65,-84.3 68,-84.3 71,-84.3 74,-84.3
seed vos 77,-84.3 80,-84.3 83,-84.3 86,-84.3 89,-84.3 92,-84.3 95,-84.3 98,-84.3 101,-84.3 104,-84.3 107,-84.3 110,-84.3 113,-84.3 116,-84.3 119,-84.3 122,-84.3 125,-84.3
seed dmv 128,-84.3 131,-84.3 134,-84.3 137,-84.3 140,-84.3 143,-84.3 146,-84.3 149,-84.3
seed len 152,-84.3 155,-84.3 158,-84.3 161,-84.3
seed ris 164,-84.3 167,-84.3 170,-84.3 173,-84.3 176,-84.3 179,-84.3 -178,-84.3 -175,-84.3 -172,-84.3 -169,-84.3 -166,-84.3 -163,-84.3 -160,-84.3 -157,-84.3 -154,-84.3 -151,-84.3 -148,-84.3
seed mbl -145,-84.3 -142,-84.3 -139,-84.3 -136,-84.3 -133,-84.3 -130,-84.3 -127,-84.3 -124,-84.3 -121,-84.3 -118,-84.3 -115,-84.3 -112,-84.3 -109,-84.3 -106,-84.3 -103,-84.3 -100,-84.3 -97,-84.3 -94,-84.3 -91,-84.3 -88,-84.3 -85,-84.3
seed nde -20,-89.3 -17,-89.3 -14,-89.3 -11,-89.3 -8,-89.3 -5,-89.3 -2,-89.3 1,-89.3 4,-89.3 7,-89.3 10,-89.3 13,-89.3 16,-89.3 19,-89.3 22,-89.3 25,-89.3 28,-89.3 31,-89.3 34,-89.3 37,-89.3 40,-89.3 43,-89.3 46,-89.3 49,-89.3 52,-89.3 55,-89.3 58,-89.3 61,-89.3 64,-89.3 67,-89.3 70,-89.3 73,-89.3 76,-89.3 79,-89.3 82,-89.3 85,-89.3 88,-89.3 91,-89.3 94,-89.3 97,-89.3 100,-89.3 103,-89.3 106,-89.3 109,-89.3 112,-89.3 115,-89.3 118,-89.3 121,-89.3 124,-89.3 127,-89.3 130,-89.3 133,-89.3 136,-89.3 139,-89.3 142,-89.3 145,-89.3 148,-89.3 151,-89.3
seed sop 152,-89.3 155,-89.3 158,-89.3 161,-89.3 164,-89.3 167,-89.3 170,-89.3 173,-89.3 176,-89.3 179,-89.3 -178,-89.3 -175,-89.3 -172,-89.3 -169,-89.3 -166,-89.3 -163,-89.3 -160,-89.3 -157,-89.3 -154,-89.3 -151,-89.3 -148,-89.3 -145,-89.3 -142,-89.3 -139,-89.3 -136,-89.3 -133,-89.3 -130,-89.3 -127,-89.3 -124,-89.3 -121,-89.3 -118,-89.3 -115,-89.3 -112,-89.3 -109,-89.3 -106,-89.3 -103,-89.3 -100,-89.3 -97,-89.3 -94,-89.3 -91,-89.3 -88,-89.3 -85,-89.3 -82,-89.3 -79,-89.3 -76,-89.3 -73,-89.3 -70,-89.3 -67,-89.3 -64,-89.3 -61,-89.3 -58,-89.3 -55,-89.3 -52,-89.3 -49,-89.3 -46,-89.3 -43,-89.3 -40,-89.3 -37,-89.3 -34,-89.3 -31,-89.3 -28,-89.3 -25,-89.3 -22,-89.3

# ---------------------------------------------------------------- seas
# The Arctic: the Barents Sea reaches round the north of Greenland to the
# Beaufort Sea; the Arctic Circle is the East Siberian and Chukchi seas.
unit aoc -168.0,71.5
seed aoc 160.0,74.0
seed aoc 175.0,80.0
seed aoc -160.0,81.0 150.0,78.0 140,84.8 145,84.8 150,84.8 155,84.8 160,84.8 165,84.8 170,84.8 175,84.8 -180,84.8 -175,84.8 -170,84.8 -165,84.8 -160,84.8 -155,84.8 -150,84.8 -145,84.8 -140,84.8 -135,84.8
unit bar 40.0,73.0
seed bar -8.0,76.0 -18.0,70.0
seed bar -35.0,84.0
seed bar 10.0,83.0
seed bar 70.0,82.0
seed bar 55.0,71.0 100.0,83.0 130.0,84.5 137.0,84.5
seed bar -40,84.8 -35,84.8 -30,84.8 -25,84.8 -20,84.8 -15,84.8 -10,84.8 -5,84.8 0,84.8 5,84.8 10,84.8 15,84.8 20,84.8 25,84.8 30,84.8 35,84.8 40,84.8 45,84.8 50,84.8 55,84.8 60,84.8 65,84.8 70,84.8 75,84.8 80,84.8 85,84.8 90,84.8 95,84.8 100,84.8 105,84.8 110,84.8 115,84.8 120,84.8 125,84.8 130,84.8 135,84.8
unit ess 125.0,76.5
seed ess 75.0,75.0
seed ess 128.0,74.0 88.0,76.5 100.0,77.5 95.0,80.0 112.0,79.5 85.0,80.5 90.0,81.5 100.0,81.5 135.0,79.0 80.0,81.5
unit bfs -135.0,72.0
seed bfs -100.0,80.0
seed bfs -92.0,71.0
seed bfs -80.0,68.0
seed bfs -70.0,83.0 -130,84.8 -125,84.8 -120,84.8 -115,84.8 -110,84.8 -105,84.8 -100,84.8 -95,84.8 -90,84.8 -85,84.8 -80,84.8 -75,84.8 -70,84.8 -65,84.8 -60,84.8 -55,84.8 -50,84.8 -45,84.8
unit lse -57.0,58.0
seed lse -62.0,72.0
seed lse -52.0,64.0 -45.0,55.0
unit hba -86.0,59.0
seed hba -68.0,60.5
seed hba -76.0,62.5
unit nwg 0.0,68.0
seed nwg -30.0,62.0 -4.0,62.0 -33.0,60.0 -17.0,62.5 -25.0,66.0
unit nth 3.5,56.0
unit bas 19.5,57.5
# The Atlantic
unit nea -20.0,45.0
seed nea -4.0,36.0
seed nea -25.0,50.0 -28.0,20.0 -21.0,22.0 -30.0,8.0
unit nwa -55.0,33.0
seed nwa -62.0,41.0
seed nwa -75.0,31.0
seed nwa -68.0,24.0
seed nwa -55.0,15.0 -58.0,11.0
seed nwa -46.0,4.0
unit wao -30.0,-5.0
seed wao -40.0,-28.0 -50.0,-36.0
unit eao -10.0,0.0
seed eao 5.0,-10.0 10.0,-25.0 -15.0,-30.0 -19.0,12.0
unit swa -40.0,-45.0
seed swa -50.0,-58.0
seed swa -35.0,-65.0 -25.0,-40.0 -64.0,-56.5
unit sea 5.0,-45.0
seed sea 18.0,-40.0
seed sea 15.0,-62.0
unit gom -90.0,25.0
seed gom -95.0,24.0 -83.5,24.0 -81.0,24.2
unit cse -75.0,15.0
seed cse -84.0,18.0
seed cse -66.0,14.5
# The Mediterranean, the Black Sea, the Red Sea
unit med 18.0,35.0
seed med 5.0,39.0
seed med 25.0,36.5
seed med 32.0,33.5
unit bla 34.0,43.3
unit rse 39.6,19.4
seed rse 34.5,27.0
# The Indian Ocean
unit ase 63.0,17.0
seed ase 52.0,26.5 50.0,13.0
unit nwi 55.0,-5.0
seed nwi 65.0,5.0
seed nwi 45.0,-5.0 70.0,8.0 51.0,-10.0
unit mch 41.5,-18.0
seed mch 42.0,-11.5 36.0,-27.0
unit swi 50.0,-40.0
seed swi 55.0,-60.0 45.0,-35.0 47.0,-28.0 30.0,-37.0
unit sio 80.0,-45.0
seed sio 85.0,-60.0
unit nei 88.0,-5.0
seed nei 78.0,3.0
seed nei 92.0,2.0 98.0,5.0 101.0,2.5 105.0,0.0 106.0,-3.0
seed nei 105.0,-15.0
unit bob 88.0,15.0
seed bob 96.0,11.0
unit sei 120.0,-50.0
seed sei 125.0,-62.0
seed sei 105.0,-40.0 105.0,-62.0 135.0,-38.0 145.0,-62.0 150.0,-64.0
unit jse 118.0,-12.0
seed jse 112.0,-6.5
seed jse 130.0,-10.0 117.5,-2.0
# The Pacific
unit scs 113.0,14.0
seed scs 109.0,5.0 102.0,10.0
unit yse 124.0,30.0
seed yse 127.0,33.0
unit soj 134.5,40.0
seed soj 132.0,37.5
unit soo 148.0,55.0
seed soo 152.0,48.0 145.0,46.5
unit wpo 140.0,18.0
seed wpo 134.0,27.0 136.0,31.0
seed wpo 128.0,8.0 122.0,3.5
unit nwp 160.0,40.0
seed nwp 146.0,37.0 143.0,42.0 162.0,50.0
unit brs -175.0,60.0
seed brs 172.0,58.0
unit npo -140.0,42.0
seed npo -122.0,30.0
seed npo -170.0,45.0 -130.0,25.0
unit cpo -170.0,15.0
seed cpo 175.0,20.0
seed cpo -150.0,15.0 -138.0,10.0
unit nep -110.0,10.0
seed nep -95.0,10.0
seed nep -82.0,4.0
seed nep -125.0,15.0
unit epa -100.0,-25.0
seed epa -82.0,-12.0
unit pis 170.0,-10.0
seed pis 150.0,-3.0 127.0,-3.0
seed pis -170.0,-15.0
seed pis -145.0,-10.0
seed pis -125.0,-5.0
unit tse 160.0,-38.0
seed tse 152.0,-39.0
unit swp 170.0,-60.0
seed swp 147.0,-45.0 155.0,-52.0 170.0,-50.0
seed swp 170.0,-72.0
unit spo -140.0,-60.0
seed spo -155.0,-73.0
unit sep -80.0,-58.0
seed sep -100.0,-68.0
seed sep -80.0,-68.0

# The data stop short of the pole and leave out the ice shelves, on which
# the Ross Ice Shelf and the British Antarctic Territory stand.
bridge -180,-90 180,-90 180,-83 -180,-83
bridge 150,-84 150,-80 160,-77.6 166,-77.9 170,-78.3 175,-78.4 180,-78.3 185,-78.3 190,-78.5 195,-78.6 202,-78.3 210,-77.5 225,-77 225,-84
bridge -83,-84 -83,-78 -75,-77 -62,-74.8 -58,-76 -50,-77.6 -40,-78 -34,-77.8 -28,-76.5 -28,-84

# Modern Diplomacy's provinces, in longitude,latitude (degrees east, degrees
# north). scripts/natural-earth-maps.sh cuts Natural Earth's land and sea
# with these lines into variants/modern.shapes. Format: scripts/maps/README.md.

projection lcc 20 35 65 48
warp 14 50 0.6 4500
lens -3 54.5 0.9 320                # Britain's six provinces
lens 35.2 31.5 0.6 200              # the Levant's four
lens -5.45 36.35 2.0 80            # Gibraltar
lens 7.2 43.85 1.5 60              # Monaco
lens 13.8 41.5 0.5 280             # Italy's narrow middle
lens 20.8 42.0 0.4 230             # the western Balkans
view 19 46.5 5.2
canvas 1730 1500
min-island 5
island-reach 8
simplify 0.6

# ---------------------------------------------------------------- units: seas
unit adr 15.5,43.0
unit aeg 25.0,38.5
unit ara 58.0,24.6
unit arc -5.0,74.0
unit bal 19.0,56.0
unit bhm 14.2,54.9
unit bis -5.0,45.5
unit brn 40.0,72.0
unit cas 50.5,42.0
unit ebs 35.0,43.0
unit eme 31.0,33.8
unit eng -2.0,50.0
unit gob 20.0,62.0
unit gol 4.5,42.5
unit hel 7.5,54.3
unit ion 18.5,37.0
unit iri -5.0,53.5
unit lbn 21.0,33.5
unit lig 9.0,43.5
unit mal 14.5,35.0
unit mid -20.0,40.0
unit nao -25.0,55.0
unit nth 3.0,56.0
unit nwg 2.0,66.0
unit per 51.0,27.0
unit red 38.6,20.5
unit sao -20.0,30.0
unit ska 9.0,58.0
unit sog -3.6,36.0
unit tyr 12.0,40.0
unit wbs 30.0,43.5
unit whi 38.0,65.5
unit wme 3.0,38.5

# ---------------------------------------------------------------- units: land
# Britain, Ireland, Iceland
unit cly -4.8,57.0
unit edi -3.0,56.7
unit liv -2.8,53.9
unit yor -1.2,54.0
unit wal -3.7,52.3
unit lon -0.6,51.6
unit ire -8.0,53.0
unit ice -19.0,64.9
# Iberia and North Africa
unit por -8.0,39.8
unit nav -4.5,42.5
unit mad -3.7,40.2
unit bar 1.3,41.8
unit adl -2.5,38.3
unit sve -5.9,37.4
unit gib -5.5,36.38
unit mor -6.0,32.5
unit alg 3.0,33.0
unit wsa 0.0,27.0
unit tun 9.5,34.5
unit lib 17.0,29.5
unit esa 26.5,27.5
unit ale 29.5,30.8
unit cai 31.5,29.5
unit asw 32.5,24.5
unit sin 33.8,29.8
# France, the Low Countries, Switzerland
unit bri -2.8,48.2
unit bor -0.3,44.8
unit auv 2.6,44.6
unit par 2.0,48.3
unit pic 3.5,49.6
unit als 6.8,48.4
unit lyo 5.0,46.0
unit mar 5.8,44.0
unit mon 7.15,43.88
unit bel 4.6,50.6
unit hol 5.6,52.3
unit swi 8.0,46.8
# Italy and the Balkans
unit pie 7.7,45.0
unit mil 9.5,45.6
unit ven 12.0,45.6
unit tus 11.2,43.4
unit rom 12.8,42.0
unit apu 16.3,40.9
unit nap 15.9,40.3
unit aus 14.5,47.4
unit cro 16.0,45.4
unit bos 17.8,44.2
unit ser 20.6,43.8
unit alb 20.0,41.0
unit mac 21.6,41.6
unit gre 22.0,39.6
unit bul 25.0,42.7
unit rum 25.0,45.5
unit hun 19.0,47.0
unit slk 19.5,48.7
unit mol 28.5,47.2
# Germany, Poland, the Baltic, Scandinavia
unit ruh 7.3,51.3
unit fra 9.0,50.2
unit mun 11.5,48.3
unit ham 9.8,53.3
unit ber 13.3,52.6
unit sax 12.5,51.0
unit den 9.3,56.0
unit cze 15.0,49.8
unit sil 17.0,51.3
unit pru 16.0,53.6
unit gda 18.5,54.0
unit war 21.0,52.2
unit kra 20.2,50.2
unit lit 24.0,55.3
unit lat 25.0,56.9
unit est 25.5,58.7
unit fin 26.0,62.5
unit swe 15.0,60.0
unit nwy 9.0,61.0
unit lap 25.0,68.0
# Russia, Ukraine and the Caucasus
unit stp 30.5,59.6
unit mur 33.0,68.0
unit mos 37.6,55.6
unit gor 44.0,56.3
unit ura 55.0,62.0
unit sib 62.0,56.0
unit vol 46.0,50.0
unit kaz 55.0,47.0
unit crp 37.0,52.8
unit bie 28.0,53.5
unit pod 27.0,49.5
unit kie 31.6,50.0
unit kha 36.2,50.0
unit don 38.5,48.0
unit ros 40.5,46.8
unit ode 30.2,46.8
unit sev 34.0,45.0
unit cau 45.0,44.5
unit geo 43.0,42.0
unit aze 47.5,40.3
unit arm 42.0,39.5
# Turkey and the Middle East
unit ist 28.0,41.3
unit izm 27.6,38.6
unit ana 31.5,37.5
unit ank 33.0,40.0
unit ada 36.5,37.6
unit syr 38.0,35.0
unit isr 35.0,31.3
unit jor 36.6,30.6
unit irk 44.0,33.0
unit irn 53.0,33.0
unit irn/nc 51.5,36.9
unit irn/sc 56.5,26.8
unit sau 45.0,24.0

# ---------------------------------------------------------------- land borders
# Britain
land -4.4,58.6 -4.5,57.5 -4.0,56.7 -4.05,56.1 -3.9,55.75             # cly/edi
land -3.9,55.75 -4.4,55.3 -5.0,55.0                        # cly/liv
land -3.9,55.75 -3.0,55.5 -2.5,55.0                        # edi/liv
land -2.5,55.0 -1.8,55.4 -1.5,55.6                         # edi/yor
land -2.5,55.0 -2.3,54.0 -2.2,53.2                         # liv/yor
land -3.05,53.3 -2.7,53.1 -2.2,53.2                        # liv/wal
land -2.2,53.2 -1.5,52.6                                   # wal/yor
land -1.5,52.6 -2.2,52.0 -2.3,51.3 -2.0,50.7                         # wal/lon
land -1.5,52.6 0.0,52.8 0.2,52.9                           # lon/yor
# Iberia
frontier Portugal Spain                                    # por/nav, por/mad, por/sve
land -6.2,41.6 -5.0,41.2 -3.5,41.1 -2.0,41.2 -0.5,40.8     # nav/mad
land 0.7,42.85 0.5,42.0 -0.2,41.4 -0.5,40.8                # nav/bar
land -0.5,40.8 -1.0,40.2 -1.2,39.6                         # bar/mad
land -1.2,39.6 -0.3,39.3                                   # bar/adl
land -1.2,39.6 -2.5,38.9 -3.5,38.5                         # mad/adl
land -3.5,38.5 -5.0,38.6 -6.0,39.0 -7.0,39.0               # mad/sve
land -3.5,38.5 -4.5,37.3 -5.0,36.9 -5.25,36.7              # adl/sve
land -4.95,36.45 -5.25,36.7                                # gib/adl: Gibraltar is the Campo and Cape Trafalgar
land -5.25,36.7 -5.7,36.45 -6.0,36.2                       # gib/sve
frontier France Spain   # nav/bor
frontier Andorra Spain   # bar/auv
# France, the Low Countries, Switzerland
land -2.1,47.0 -1.0,46.6 0.2,46.5                          # bri/bor
land 0.2,46.5 0.5,47.5 0.8,48.5 1.3,49.0                   # bri/par
land 1.3,49.0 1.5,49.5 1.45,50.1                           # bri/pic
land 1.3,49.0 2.5,49.0 3.5,48.7 4.5,48.6 5.0,48.6          # par/pic
frontier Belgium France   # pic/bel
frontier Luxembourg France   # bel/als
land 4.2,49.95 4.6,49.2 5.0,48.6                           # pic/als
land 5.0,48.6 5.3,48.0 5.5,47.3                            # par/als
land 5.5,47.3 6.2,47.1 6.9,47.1                            # als/lyo
land 6.1,46.15 5.4,46.0 4.8,45.3                           # lyo/mar
land 4.8,45.3 4.0,45.8 3.5,46.5                            # auv/lyo
land 3.5,46.5 4.5,47.0 5.5,47.3                            # par/lyo
land 3.5,46.5 2.0,46.5 1.0,46.0 0.2,46.5                   # auv/par
land 0.2,46.5 1.0,46.0                                     # bor/par
land 1.0,46.0 1.2,45.0 0.8,44.0 0.0,42.72                  # bor/auv
land 4.8,45.3 4.6,44.5 4.5,43.6                            # auv/mar
frontier France Italy   # mar/pie
land 7.5,44.1 7.0,44.1 6.9,43.7 6.85,43.45                 # mar/mon: Monaco is the Riviera from the Esterel to Italy
frontier Belgium Germany   # bel/ruh
frontier Belgium Netherlands   # bel/hol
frontier Germany Netherlands   # hol/ruh
frontier France Germany   # als/ruh
frontier France Switzerland   # als/swi
frontier Germany Switzerland   # mun/swi
frontier Austria Switzerland   # swi/aus
frontier Italy Switzerland   # swi/pie
# Germany, Austria, Bohemia
frontier Austria Germany   # mun/aus
frontier Austria Czechia   # cze/aus
land 13.105,48.282 12.7,48.8 12.1,49.4 11.8,49.9 11.0,50.3 10.6,50.5     # sax/mun
frontier Czechia Germany   # sax/cze
frontier Czechia Poland   # cze/sil
frontier Germany Poland   # sax/sil
land 14.85,51.8 13.0,51.6 12.0,51.8 11.0,52.1              # ber/sax
land 11.0,52.1 10.9,51.3 10.6,50.5                        # fra/sax
land 10.6,50.5 9.8,50.0 8.9,49.6 8.3,49.3                 # fra/mun
land 8.3,49.3 8.2,49.0                                     # ruh/mun
land 8.3,49.3 7.7,50.3 8.0,51.3 8.5,52.1                  # fra/ruh
land 8.5,52.1 10.2,52.3                                   # fra/ham
land 10.2,52.3 11.0,52.1                                   # fra/ber
land 10.2,52.3 11.0,53.0 10.7,53.5 10.9,53.95              # ham/ber
land 8.5,52.1 8.0,52.4 7.0,52.4                           # ham/ruh
frontier Denmark Germany   # den/ham
land 14.6,52.3 16.5,52.4 17.5,52.6                         # pru/sil
land 17.5,52.6 18.5,53.0                                   # pru/war
land 18.5,53.0 18.0,53.8 17.8,54.8                         # pru/gda
land 18.5,53.0 20.0,53.5 20.9,54.4   # gda/war
land 20.9,54.4 21.0,54.6 20.6,55.1   # gda/lit
land 17.5,52.6 18.5,51.5 19.0,50.8                         # sil/war
land 19.0,50.8 18.75,50.1 18.58,49.79   # sil/kra
frontier Czechia Slovakia   # cze/slk
frontier Austria Slovakia   # aus/slk
frontier Austria Hungary   # aus/hun
frontier Poland Slovakia   # kra/slk
frontier Poland Ukraine   # kra/pod
land 19.0,50.8 21.0,51.0 22.5,51.2 23.59,51.77   # war/kra
frontier Belarus Poland   # kra/bie
frontier Lithuania Poland   # war/lit
frontier Belarus Lithuania   # lit/bie
frontier Latvia Lithuania   # lit/lat
frontier Belarus Latvia   # lat/bie
frontier Latvia Russia   # lat/mos
frontier Estonia Latvia   # lat/est
frontier Estonia Russia   # est/stp
# Italy and the Balkans
land 8.4,46.45 8.6,45.5 9.2,44.8 9.6,44.4                  # pie/mil
land 9.6,44.4 9.85,44.1                                    # pie/tus
land 10.99,46.77 11.0,45.5 11.3,44.8   # mil/ven
land 9.6,44.4 10.5,44.6 11.3,44.8                          # mil/tus
frontier Austria Italy   # aus/ven
frontier Italy Slovenia   # ven/cro
frontier Austria Slovenia   # aus/cro
land 11.3,44.8 12.0,44.0 12.2,43.6                         # ven/tus
land 12.2,43.6 11.9,42.8 11.45,42.4                        # tus/rom
land 12.2,43.6 12.9,43.0 13.4,42.75                        # ven/rom
land 13.4,42.75 13.9,42.9                                  # ven/apu
land 13.4,42.75 13.9,42.1 14.2,41.7                        # rom/apu
land 14.2,41.7 13.8,41.3 13.65,41.2                        # rom/nap
land 14.2,41.7 15.0,41.2 15.6,40.7 16.2,40.4 16.6,40.1     # apu/nap
frontier Hungary Slovakia   # slk/hun
frontier Slovakia Ukraine   # slk/pod
frontier Hungary Ukraine   # hun/pod
frontier Hungary Romania   # hun/rum
frontier Hungary Serbia   # hun/ser
frontier Croatia Hungary   # hun/cro
frontier Romania Ukraine   # rum/pod
frontier Moldova Romania   # rum/mol
frontier Moldova Ukraine   # mol/pod
frontier Romania Serbia   # rum/ser
frontier Bulgaria Romania   # rum/bul
frontier Bulgaria Serbia   # ser/bul
frontier Bulgaria Macedonia   # mac/bul
frontier Greece Macedonia   # mac/gre
frontier Albania Macedonia   # mac/alb
frontier Macedonia Serbia   # mac/ser
frontier Albania Kosovo   # alb/ser
frontier Albania Greece   # alb/gre
frontier Bulgaria Greece   # bul/gre
frontier Bulgaria Turkey   # bul/ist
frontier Greece Turkey   # gre/ist
frontier Bosnia_and_Herz. Croatia 19.017,44.866 17.296,43.296   # bos/cro
frontier Bosnia_and_Herz. Serbia   # bos/ser
frontier Croatia Serbia   # cro/ser (north)
frontier Croatia Montenegro   # cro/ser (south)
# Ukraine and Russia
frontier Belarus Ukraine   # bie/pod (from kra)
land 29.042,47.953 30.5,48.5   # pod/ode
land 30.5,48.5 30.534,51.553   # pod/kie
frontier Belarus Russia   # bie/crp
land 30.5,48.5 32.0,47.8 33.0,47.2                         # kie/ode
land 33.0,47.2 32.8,46.7 32.2,46.55                                   # ode/sev
land 33.0,47.2 35.0,47.3                                   # kie/sev
land 35.0,47.3 35.6,46.4                                   # sev/don
land 35.0,47.3 36.5,48.5                                   # kie/don
land 36.5,48.5 35.0,49.3 34.2,50.4 34.127,51.681   # kie/kha
land 36.5,48.5 39.003,49.806   # kha/don
frontier Russia Ukraine 38.66,49.96 38.21,47.11   # kha/crp
frontier Russia Ukraine 31.77,52.1 38.66,49.96   # kie/crp
land 39.869,48.510 43.0,47.5 44.0,46.0   # ros/vol
land 44.0,46.0 42.0,44.8 41.949,43.199   # ros/cau
frontier Georgia Russia   # ros/geo
land 44.0,46.0 46.0,46.5 47.5,46.0 49.5,45.5                         # cau/vol
frontier Azerbaijan Russia   # cau/aze
frontier Azerbaijan Georgia   # geo/aze
frontier Armenia Georgia   # geo/arm
frontier Georgia Turkey   # geo/ank
land 43.5,41.1 41.0,40.0 39.5,39.0                         # arm/ank
land 45.0,41.2 46.5,39.5                                   # arm/aze
land 46.5,39.5 48.0,39.0 48.5,38.5 48.9,38.4               # aze/irn
land 46.5,39.5 45.0,38.6 44.246,38.009   # arm/irn
land 40.0,53.5 38.5,51.3 37.896,50.015   # vol/crp
land 44.0,54.5 40.0,53.5                                   # vol/mos
land 40.0,53.5 36.0,54.0 31.17,54.62   # crp/mos
land 44.0,54.5 42.0,57.0 40.0,59.0                         # gor/mos
land 40.0,59.0 35.0,58.0 31.0,57.0 27.92,56.81   # mos/stp
land 50.0,57.0 44.0,54.5                                   # vol/gor
land 50.0,57.0 48.0,60.0 44.0,62.5                         # gor/ura
land 40.0,59.0 40.5,61.0                                   # gor/stp
land 40.5,61.0 44.0,62.5                                   # gor/mur
land 44.0,62.5 44.5,65.5 44.3,66.1 44.0,66.6                         # mur/ura
land 40.5,61.0 36.0,61.5 32.0,62.5 30.980,62.358   # stp/mur
frontier Finland Russia   # stp/fin
frontier Norway Russia   # mur/lap
land 29.624,66.316 25.5,66.4 23.732,66.504   # lap/fin
frontier Finland Sweden 24.162,65.823 23.732,66.504   # swe/fin
land 23.732,66.504 22.0,67.0 18.0,67.3 16.443,67.182   # lap/swe
land 16.443,67.182 15.5,67.1 13.5,67.1   # lap/nwy
frontier Norway Sweden 16.443,67.182 11.439,58.991   # nwy/swe
land 50.0,57.0 55.0,55.0                                   # vol/ura
land 55.0,55.0 62.0,60.0 70.0,66.0 80.0,72.0 120.0,80.0               # ura/sib
land 55.0,55.0 52.0,51.0                                   # vol/sib
land 52.0,51.0 50.0,48.0 49.5,45.8                         # vol/kaz
land 52.0,51.0 60.0,52.0 70.0,52.0 80.0,50.0 90.0,45.0 140.0,45.0                         # kaz/sib
land 53.5,37.5 53.9,37.3 56.0,38.0 60.0,37.0 62.0,35.5 66.0,35.0 90.0,35.0 140.0,30.0     # kaz/irn
# Turkey, the Middle East, North Africa
land 25.9,40.0 26.7,40.0 27.5,39.8 29.0,39.8 30.0,40.0               # ist/izm
land 30.0,40.0 30.5,41.1                                   # ist/ank
land 30.0,40.0 30.5,39.0                                   # izm/ank
land 30.5,39.0 29.5,37.5 28.8,36.7                         # izm/ana
land 30.5,39.0 33.0,38.7 34.5,38.3                         # ana/ank
land 34.5,38.3 34.3,36.5                                   # ana/ada
land 34.5,38.3 37.0,39.0 39.5,39.0                         # ank/ada
land 39.5,39.0 41.5,38.5 44.246,38.009   # arm/ada
frontier Iran Turkey 44.246,38.009 44.765,37.143   # ada/irn
frontier Iraq Turkey   # ada/irk
frontier Syria Turkey   # ada/syr
frontier Iraq Syria   # irk/syr
frontier Jordan Syria   # syr/jor
frontier Israel Lebanon   # isr/syr
frontier Jordan Palestine   # isr/jor
land 34.465,30.685 35.234,30.667   # isr/sin
frontier Israel Jordan 35.234,30.667 34.955,29.559   # sin/jor
frontier Iraq Jordan   # irk/jor
frontier Jordan Saudi_Arabia   # jor/sau
land 39.145,32.119 44.0,30.0 46.5,29.1 47.7,28.5 48.8,28.3   # irk/sau
frontier Iran Iraq   # irk/irn
land 32.45,29.8 32.7,30.0 33.5,30.4 34.465,30.685   # cai/sin
land 30.6,31.5 30.8,30.5 30.5,29.5                         # ale/cai
land 30.5,29.5 32.6,29.3                                   # cai/asw
land 30.5,29.5 27.0,28.5                                   # ale/asw
land 26.5,31.5 27.0,28.5                                   # ale/esa
land 27.0,28.5 28.0,24.0 28.0,13.0                          # esa/asw
land 24.982,22.0 25.0,13.0   # esa/lib
frontier Libya Tunisia   # lib/tun
frontier Algeria Libya 9.52,30.229 10.031,25.002   # lib/alg
land 10.031,25.002 10.0,13.0   # lib/wsa
frontier Algeria Tunisia   # alg/tun
land 10.031,25.002 5.0,28.0 0.0,29.0 -4.026,30.591   # alg/wsa
land -4.026,30.591 -8.0,27.0 -11.0,22.0 -13.0,17.0 -14.5,13.1   # mor/wsa
frontier Algeria Morocco -2.223,35.089 -4.026,30.591   # mor/alg

island nap 14.0,37.5
island bar 3.0,39.6
neutral crete 24.9,35.2
island den 11.9,55.5
neutral Sardinia 9.0,40.0
neutral Corsica 9.1,42.1
neutral Cyprus 33.0,35.0
land 43.35,12.75 42.3,11.6 41.0,8.0 40.0,2.0 38.0,-5.0 38.0,-30.0                            # the Horn of Africa, no province's
neutral horn 46.0,8.0
land -18.0,13.4 -10.0,13.0 0.0,13.0 20.0,13.0 30.0,13.0 37.0,14.0 41.65,9.8   # the board ends at the Sahel
neutral sahel 10.0,11.5
neutral greenland -40.0,70.0
neutral svalbard 16.0,78.5
neutral novayazemlya 55.0,73.0
bridge 12.56,56.0 12.74,56.0 12.74,56.08 12.56,56.08   # Oresund: Denmark meets Sweden
land 12.655,56.1 12.655,55.95                              # den/swe (over the bridge)
bridge 9.68,55.48 9.80,55.48 9.80,55.54 9.68,55.54           # the Little Belt
bridge 15.55,38.18 15.72,38.18 15.72,38.32 15.55,38.32       # Messina: the Tyrrhenian and Ionian seas do not meet

# ---------------------------------------------------------------- sea borders
sea -4.9,58.45 -5.3,58.9 -8.5,60.5 -13.5,64.2 -14.5,64.4 -15.5,64.6          # nao/nwg
sea -15.0,66.0 -15.0,67.0 0.0,72.5 25.8,75.0                       # arc/nwg
sea 25.8,70.95 25.8,75.0                                          # brn/nwg
sea 25.8,75.0 30.0,80.0 35.0,88.0                                           # arc/brn
sea -22.0,66.4 -30.0,67.5 -34.0,66.5 -38.0,66.0                              # arc/nao
sea -3.3,58.55 -2.0,59.3 0.0,60.8 4.5,61.3 5.2,61.3               # nwg/nth
sea 40.0,68.0 44.2,66.9                                           # brn/whi
sea 7.0,58.15 8.7,57.0                                            # nth/ska
sea 8.35,56.0 7.0,55.1 5.6,54.0 4.78,52.9                         # nth/hel
sea 1.3,51.33 2.2,51.3 3.0,51.18                                  # nth/eng
sea -9.75,51.5 -9.7,50.3 -6.2,49.8 -5.5,48.6                      # iri/nao, iri/mid, eng/mid
sea -5.5,48.6 -4.7,48.45                                          # eng/bis
sea -5.5,48.6 -9.0,45.5 -8.0,43.7                                 # bis/mid
sea -6.3,49.78 -5.5,50.1                                          # eng/iri
sea -5.8,54.6 -3.2,54.6                                           # iri/nao
sea -9.7,50.3 -15.0,50.0 -35.0,48.0 -60.0,45.0 -90.0,40.0                              # nao/mid
sea -8.9,38.0 -30.0,38.0 -60.0,38.0 -90.0,35.0                               # mid/sao
sea -5.55,36.15 -5.8,35.65                                        # sao/sog
sea -1.0,37.6 -1.5,35.3                                           # sog/wme
sea 3.2,41.9 8.4,40.9                                             # gol/wme
sea 9.1,41.45 9.2,41.15                                           # gol/tyr (Bonifacio)
sea 6.5,43.1 8.7,42.5                                             # gol/lig
sea 9.5,42.5 11.8,42.1                                            # lig/tyr
sea 8.9,39.15 9.7,37.1                                            # wme/tyr
sea 12.6,37.75 10.95,36.95                                        # tyr/mal
sea 15.1,36.7 16.5,34.5                                           # ion/mal
sea 16.5,34.5 15.5,32.0 15.3,31.5                                 # lbn/mal
sea 16.5,34.5 20.0,34.0 23.0,34.0                                 # ion/lbn
sea 23.0,34.0 23.6,35.2                                           # ion/eme
sea 23.0,34.0 28.5,31.5 29.0,30.9                                 # eme/lbn
sea 18.45,40.1 19.5,40.3                                          # ion/adr
sea 22.9,36.9 23.4,36.0 23.6,35.4                                 # ion/aeg
sea 26.0,35.2 27.5,35.6 28.0,36.2 28.3,36.85                      # aeg/eme
sea 28.95,41.18 29.25,41.18                                       # the Bosporus
sea 26.3,40.2 26.5,40.1                                           # the Dardanelles
sea 33.5,44.4 34.0,42.0                                           # wbs/ebs
sea 16.3,56.6 16.6,54.6                                           # bhm/bal
sea 18.6,60.0 18.3,59.85 20.5,58.5 21.3,57.5 21.9,57.3                                # bal/gob
sea 10.6,55.26 11.3,55.30                                         # the Great Belt, south
sea 10.6,55.46 11.3,55.50                                         # the Great Belt, north
sea 43.6,12.8 43.2,12.2                                           # red/ara
sea 56.3,26.4 56.5,27.1                                           # per/ara
water marmara 28.0,40.7
water greatbelt 10.95,55.39
frontier Egypt Palestine   # cai/isr
island ist 29.4,41.05                                        # the Asian shore of the Bosporus
sea 60.5,68.5 60.0,70.0 58.0,71.5 62.0,76.0 70.0,82.0        # the Kara Sea, no province's
water kara 65.0,72.0

# ---------------------------------------------------------------- centres: the cities
centre ada 35.32,37.0
centre ale 29.92,31.2
centre ank 32.85,39.93
centre asw 32.9,24.09
centre aus 16.37,48.21
centre bar 2.17,41.39
centre bel 4.35,50.85
centre ber 13.4,52.52
centre bie 27.56,53.9
centre bor -0.58,44.84
centre bul 23.32,42.7
centre cai 31.24,30.04
centre cro 15.98,45.81
centre cze 14.42,50.08
centre den 12.57,55.68
centre edi -3.19,55.95
centre fra 8.68,50.11
centre gda 18.65,54.35
centre geo 44.8,41.7
centre gib -5.35,36.14
centre gor 44.0,56.33
centre gre 23.73,37.98
centre ham 9.99,53.55
centre hol 4.9,52.37
centre hun 19.04,47.5
centre ire -6.26,53.35
centre irn 51.39,35.69
centre isr 35.21,31.77
centre ist 28.98,41.01
centre izm 27.14,38.42
centre kha 36.23,49.99
centre kie 30.52,50.45
centre kra 19.94,50.06
centre lib 13.19,32.89
centre lit 25.28,54.69
centre liv -2.98,53.41
centre lon -0.13,51.51
centre lyo 4.84,45.76
centre mad -3.7,40.42
centre mar 5.37,43.3
centre mil 9.19,45.46
centre mon 7.42,43.74
centre mor -6.84,34.02
centre mos 37.62,55.76
centre mun 11.58,48.14
centre mur 33.08,68.97
centre nap 14.27,40.85
centre nwy 10.75,59.91
centre ode 30.73,46.48
centre par 2.35,48.86
centre por -9.14,38.72
centre rom 12.5,41.9
centre ros 39.72,47.23
centre rum 26.1,44.43
centre sau 46.72,24.71
centre ser 20.46,44.8
centre sev 33.52,44.6
centre stp 30.34,59.93
centre sve -5.98,37.39
centre swe 18.07,59.33
centre swi 7.45,46.95
centre tun 10.18,36.8
centre ven 12.33,45.44
centre war 21.01,52.23

# ---------------------------------------------------------------- names where the spot beside the unit does not fit
name cly -4.27,55.76
name den 11.71,55.46
name hol 6.22,53.13
name isr 35.11,32.52
name ist 28.55,40.12
name ruh 7.04,50.08
name edi -2.35,55.49
name gib -5.45,35.97 offshore
name mon 7.3,43.5 offshore
name wal -2.44,52.70
name lig 7.80,43.00
frontier Liechtenstein Switzerland                          # Liechtenstein goes with Austria
frontier Luxembourg Germany                                 # bel/ruh
frontier Hungary Slovenia                                   # hun/cro
frontier Poland Russia 22.77,54.36 20.9,54.4                 # war/lit: Kaliningrad's border
name bel 5.80,49.66
frontier Kosovo Macedonia                                   # mac/ser
frontier Albania Montenegro                                 # alb/ser
frontier Bosnia_and_Herz. Montenegro                        # bos/ser
land 17.937,42.785 18.1,42.85 18.35,42.75 18.438,42.559   # bos/cro behind Dubrovnik, a little inland: the real strip is too thin to draw
land 17.296,43.296 17.8,43.15 17.937,42.785                 # bos/cro behind Neum: its shore is Croatia's (Bosnia has none on the board)
island cro 18.1,42.72                                      # Dubrovnik, beyond Neum
name mac 21.15,40.99
name mol 27.75,48.20
frontier Egypt Libya                                        # esa/lib
name aze 48.85,41.01
frontier Israel Syria                                       # isr/syr: the Golan
frontier Israel Jordan 35.757,32.744 35.559,32.384          # isr/jor, north of the West Bank
frontier Israel Jordan 35.459,31.493 35.234,30.667          # isr/jor, the Dead Sea and the Arava
frontier Egypt Israel 34.249,31.212 34.465,30.685           # cai/isr

# The standard map's provinces as on the 1901 board, in longitude,latitude
# (degrees east, degrees north). scripts/natural-earth-maps.sh cuts Natural
# Earth's land and sea with these lines into variants/standard.shapes.
# Format: scripts/maps/README.md.

projection lcc 15 40 60 50        # Lambert conformal conic: central meridian, two parallels, origin
warp 9 49 1.0 3500               # magnify around 9°E 49°N by 2, less and less farther out
view 11.92 49.92 4.525             # the canvas centre and km per canvas unit (before the magnification)
canvas 1200 1186
min-island 5                      # drop islands under 5 canvas units²
island-reach 8                    # islands within 8 units of a province belong to it
simplify 0.55                     # coastline tolerance, canvas units

# ---------------------------------------------------------------- land borders
# Iberia and France
land -9.0,41.87 -8.2,42.12 -7.2,41.9 -6.55,41.95 -6.2,41.6 -6.85,41.0 -6.9,40.3 -7.0,39.7 -7.5,39.6 -7.0,39.0 -7.3,38.4 -7.0,38.0 -7.5,37.5 -7.42,37.0   # por/spa
land -1.9,43.45 -1.4,43.1 -0.7,42.85 0.0,42.72 0.7,42.85 1.4,42.6      # spa/gas
land 1.4,42.6 2.0,42.4 2.7,42.43 3.25,42.43                            # spa/mar
land 1.4,42.6 2.0,43.3 3.0,44.2 4.3,45.4                               # gas/mar
land 4.3,45.4 3.6,46.0 3.0,46.6                                        # gas/bur
land 3.0,46.6 1.5,46.9 0.3,47.2 -0.3,47.3                              # gas/par
land -0.3,47.3 -1.3,47.2 -2.25,47.2                                    # bre/gas
land -0.3,47.3 0.2,48.0 0.9,48.6 1.3,49.0                              # bre/par
land 1.3,49.0 0.6,49.3 0.2,49.45                                       # bre/pic
land 1.3,49.0 2.2,49.25 3.3,49.1                                       # pic/par
land 3.3,49.1 3.7,48.0 3.0,46.6                                        # par/bur
land 3.3,49.1 4.2,49.95                                                # pic/bur
land 4.2,49.95 4.1,50.3 3.3,50.5 2.9,50.7 2.55,51.09                   # pic/bel
land 4.2,49.95 4.8,50.1 4.9,49.8 5.5,49.5 5.95,49.5                    # bel/bur
land 5.95,49.5 6.37,49.47 6.5,49.8 6.1,50.15 6.4,50.35 6.02,50.75      # bel/ruh
land 3.37,51.37 4.3,51.42 5.0,51.45 5.8,51.15 5.7,50.8 6.02,50.75      # bel/hol
land 6.02,50.75 6.1,51.2 6.2,51.9 6.8,52.1 7.0,52.4                    # hol/ruh
land 7.0,52.4 7.05,53.0 7.2,53.3                                       # hol/kie
land 5.95,49.5 5.9,49.2 6.0,48.95 6.6,48.6 7.1,48.5                    # bur/ruh
land 7.1,48.5 7.0,48.1 6.85,47.8 7.0,47.6 7.45,47.48                   # bur/mun
land 7.45,47.48 7.0,47.45 6.9,47.1 6.4,46.7 6.1,46.4 6.1,46.15         # bur/swi
land 6.1,46.15 5.4,46.0 4.3,45.4                                       # bur/mar
land 6.1,46.15 6.8,46.4 7.0,45.95                                      # mar/swi
land 7.0,45.95 6.8,45.7 7.1,45.4 6.75,45.1 7.0,44.8 6.9,44.4 7.5,44.1 7.53,43.78   # mar/pie
# Switzerland, the Alps and Italy
land 7.0,45.95 7.9,45.95 8.4,46.45 8.8,46.1 9.0,45.83 9.3,46.5 10.0,46.35 10.1,46.25 10.45,46.55   # pie/swi
land 10.45,46.55 10.45,46.85 10.1,46.85 9.6,47.05 9.6,47.5             # tyr/swi
land 9.6,47.5 9.2,47.65 8.5,47.6 7.6,47.58 7.45,47.48                  # mun/swi
land 10.45,46.55 10.6,46.1                                             # tyr/pie
land 10.6,46.1 10.5,45.6 10.2,45.0 10.0,44.6 9.9,44.4                  # pie/ven
land 10.6,46.1 10.9,45.75 11.2,45.7 11.8,46.0 12.2,46.3 12.7,46.6 13.4,46.45   # tyr/ven
land 13.4,46.45 13.55,46.0 13.45,45.72                                 # ven/tri
land 13.4,46.45 14.0,46.5 14.6,46.45                                   # tyr/tri
land 9.9,44.4 9.85,44.1                                                # pie/tus
land 9.9,44.4 10.8,44.2 11.7,44.0 12.2,43.6                            # ven/tus
land 12.2,43.6 11.9,42.8 11.45,42.4                                    # tus/rom
land 12.2,43.6 12.9,43.0 13.4,42.75                                    # ven/rom
land 13.4,42.75 13.9,42.9                                              # ven/apu
land 13.4,42.75 13.9,42.1 14.2,41.7                                    # rom/apu
land 14.2,41.7 13.8,41.3 13.65,41.2                                    # rom/nap
land 14.2,41.7 15.0,41.2 15.6,40.7 16.2,40.4 16.6,40.1                 # apu/nap
# Austria-Hungary
land 14.6,46.45 14.3,47.0 14.2,47.6 14.5,48.2 14.6,48.6                # tyr/vie
land 14.6,46.45 15.6,46.3 16.3,46.4                                    # vie/tri
land 16.3,46.4 16.1,46.9 16.5,47.5 17.0,48.0 17.5,48.3 18.6,48.8 19.2,49.4   # vie/bud
land 14.6,48.6 15.5,48.9 16.9,48.7 17.6,49.1 18.4,49.6 18.6,49.6       # boh/vie
land 18.6,49.6 19.2,49.4                                               # gal/vie
land 18.6,49.6 18.8,49.9 18.9,50.1                                     # gal/boh
land 18.9,50.1 19.2,50.25                                              # gal/sil
land 18.9,50.1 18.0,50.1 17.4,50.3 16.6,50.2 16.3,50.7 15.0,50.9 14.8,51.0   # boh/sil
land 14.8,51.0 14.3,51.05 13.0,50.6 12.2,50.3 12.5,49.9 12.8,49.3 13.8,48.75 # boh/mun
land 13.8,48.75 14.6,48.6                                              # boh/tyr
land 9.6,47.5 10.5,47.5 11.4,47.45 12.2,47.7 12.8,47.7 13.0,48.1 13.4,48.6 13.8,48.75   # mun/tyr
land 19.2,49.4 20.3,49.4 21.5,49.4 22.5,49.1 23.0,48.8 24.0,48.1 24.6,47.9 25.2,47.5   # gal/bud
land 25.2,47.5 26.0,47.9 26.6,48.25                                    # gal/rum
land 25.2,47.5 25.9,46.9 26.4,46.3 26.1,45.8 25.5,45.45 24.5,45.55 23.3,45.35 22.7,45.2 21.9,44.7   # bud/rum
land 16.3,46.4 16.9,45.9 17.7,45.7 18.4,45.1 19.2,44.9                 # tri/bud
land 19.2,44.9 20.3,44.8 21.4,44.8 21.9,44.7                           # bud/ser
# Germany
land 7.1,48.5 7.6,49.0 8.3,49.3 8.9,49.8 9.5,50.2 10.0,50.6 9.8,51.4   # ruh/mun
land 7.0,52.4 8.0,52.2 8.8,51.9 9.8,51.4                               # ruh/kie
land 9.8,51.4 10.5,51.7 11.0,52.1                                      # kie/mun
land 11.0,52.1 11.0,53.0 10.7,53.5 10.9,53.95                          # kie/ber
land 11.0,52.1 12.0,51.8 13.0,51.6 14.0,51.6 14.85,51.8                # ber/mun
land 14.8,51.0 14.85,51.8                                              # sil/mun
land 14.85,51.8 15.2,52.3 15.8,52.9 16.5,53.3                          # ber/sil
land 16.5,53.3 17.2,54.0 17.4,54.75                                    # ber/pru
land 16.5,53.3 17.5,53.2 18.5,53.1 19.3,52.9                           # pru/sil
land 8.6,55.45 9.0,55.45 9.5,55.45 9.65,55.45                          # kie/den
land 12.655,56.1 12.655,55.95                                          # den/swe (over the bridge)
# Russia and its western neighbours
land 19.3,52.9 18.7,52.6 18.4,52.2 17.9,51.6 18.5,51.1 19.0,50.4 19.2,50.25   # sil/war
land 19.3,52.9 20.3,53.15 21.6,53.5 22.6,53.6 22.8,54.35               # pru/war
land 22.8,54.35 22.5,55.0 21.3,55.3 21.2,55.87 20.95,55.87             # pru/lvn
land 22.8,54.35 24.5,54.0 26.5,53.8 28.5,53.5                          # lvn/war
land 28.5,53.5 28.5,54.5 29.0,55.5 29.0,56.5 28.5,57.5                 # lvn/mos
land 28.5,57.5 28.3,57.8 27.8,58.6 28.1,59.2 28.05,59.6                # lvn/stp
land 28.5,57.5 31.0,58.0 34.0,58.5 38.0,59.0 42.0,59.5 48.0,60.0 110.0,60.0   # stp/mos
land 28.5,53.5 29.0,52.5 29.0,52.0                                     # war/mos
land 29.0,52.0 27.0,51.6 25.0,51.5 24.1,50.8                           # war/ukr
land 19.2,50.25 20.5,50.3 21.7,50.5 22.6,50.4 23.6,50.5 24.1,50.8      # gal/war
land 24.1,50.8 26.0,50.0 26.1,49.3 26.6,48.25                          # gal/ukr
land 26.6,48.25 27.5,47.6 28.1,46.8                                    # ukr/rum
land 28.1,46.8 28.2,46.0 28.2,45.5 29.0,45.35 29.75,45.25              # rum/sev
land 28.1,46.8 29.5,47.3 31.5,47.8 33.5,48.0 35.5,48.5 37.5,49.0 38.0,49.5   # ukr/sev
land 29.0,52.0 31.5,52.0 34.0,51.5 36.0,50.5 38.0,49.5                 # ukr/mos
land 38.0,49.5 40.5,50.0 44.0,50.5 47.0,50.5 110.0,50.5                 # mos/sev
# The Balkans and Turkey
land 21.9,44.7 22.5,44.6 22.7,44.25                                    # rum/ser
land 22.7,44.25 22.4,43.8 22.4,43.0 22.6,42.3 22.5,41.5                # ser/bul
land 22.7,44.25 23.5,43.8 24.5,43.7 25.5,43.65 26.5,44.0 27.3,44.1 28.0,43.75 28.6,43.75   # rum/bul
land 19.2,44.9 19.4,44.0 19.5,43.5 19.4,43.2                           # tri/ser
land 19.4,43.2 19.7,42.7 19.35,42.0 19.1,41.9                          # tri/alb
land 19.4,43.2 20.2,42.9 20.6,42.3 21.0,41.3                           # ser/alb
land 21.0,41.3 20.8,40.5 20.4,39.8 20.2,39.6                           # alb/gre
land 21.0,41.3 22.0,41.4 22.5,41.5                                     # ser/gre
land 22.5,41.5 23.5,41.4 24.3,41.2 24.6,40.9                           # gre/bul
land 26.05,40.75 26.35,41.25 26.3,41.75 26.6,42.05 27.5,42.05 28.0,41.98   # bul/con
land 29.8,40.2 30.3,40.7 30.6,41.15                                    # con/ank
land 29.8,40.2 28.7,40.15 28.2,40.4                                    # con/smy
land 29.8,40.2 32.0,39.3 35.5,39.5                                     # ank/smy
land 35.5,39.5 36.5,40.3 37.7,41.2                                     # ank/arm
land 35.5,39.5 36.0,38.5 36.5,37.5 37.0,37.0                           # smy/arm
land 37.0,37.0 36.3,36.4 35.75,36.15                                   # smy/syr
land 37.0,37.0 39.0,37.0 42.0,37.0 46.0,36.5 110.0,36.0                 # arm/syr
land 41.55,41.5 42.5,41.2 43.5,40.8 43.8,40.2 44.5,39.7 45.5,39.0 48.0,38.5 110.0,38.0   # arm/sev
# Africa
land 8.6,37.0 8.3,36.0 8.2,34.5 7.5,33.0 7.5,20.0                      # naf/tun
land 11.55,33.15 10.5,31.5 10.0,30.0 9.5,20.0                          # tun/Libya
land 34.2,31.35 35.0,29.5 36.0,20.0                                    # syr/Egypt
# Britain
land -4.5,58.6 -4.6,58.2 -4.8,57.6 -4.5,57.0 -4.3,56.5 -4.0,56.1 -3.9,55.8 -3.4,55.4 -2.8,55.1   # cly/edi
land -3.3,54.85 -3.0,55.05 -2.8,55.1                                   # cly/lvp
land -2.8,55.1 -2.2,55.3                                               # edi/lvp
land -2.2,55.3 -2.1,55.6 -2.0,55.8                                     # edi/yor
land -2.2,55.3 -2.4,54.5 -2.1,53.9 -2.0,53.3 -2.0,52.9                 # lvp/yor
land -2.0,52.9 -2.6,53.1 -3.1,53.35                                    # wal/lvp
land -2.0,52.9 -1.6,52.3 -1.5,52.1                                     # wal/yor
land -1.5,52.1 -0.5,52.5 0.3,52.9                                      # lon/yor
land -1.5,52.1 -1.7,51.5 -2.0,51.0 -2.0,50.7                           # wal/lon
# Scandinavia
land 11.15,59.0 11.6,59.5 11.8,60.0 12.6,60.5 12.2,61.0 12.6,61.6 12.1,62.0 12.2,62.6 12.0,63.1 12.6,63.8 14.1,64.5 14.5,65.2 15.5,66.1 16.5,67.0 17.5,68.0 18.2,68.5 19.5,68.4 20.55,69.06   # nwy/swe
land 20.55,69.06 21.0,68.8 22.4,68.45 23.5,67.9 23.6,67.2 23.9,66.5 24.15,65.8   # swe/fin
land 20.55,69.06 21.5,69.3 22.4,68.7 23.9,68.8 25.0,68.65 25.8,69.0 26.5,69.9 27.9,70.05 28.4,69.8 29.0,69.3   # nwy/fin
land 29.0,69.3 29.7,69.5 30.5,69.6 30.85,69.8                          # nwy/stp
land 29.0,69.3 28.8,68.3 30.0,67.7 29.3,66.9 30.1,65.7 29.6,64.9 30.5,64.2 30.0,63.5 31.5,62.9 31.0,62.2 30.5,61.3 29.9,60.5 29.95,60.15   # fin/stp

# Land added or taken away: the Øresund and the Little Belt closed, so that
# Denmark meets Sweden and the Skagerrak does not meet the Baltic.
bridge 12.58,56.015 12.72,56.015 12.72,56.065 12.58,56.065
bridge 9.68,55.48 9.80,55.48 9.80,55.54 9.68,55.54

# ------------------------------------------------------------------ sea borders
sea -4.9,58.45 -5.3,58.9 -8.5,60.5 -13.0,64.0 -14.5,65.0 -16.0,67.0 -18.0,72.0 -20.0,80.0   # nao/nwg
sea -3.3,58.55 -2.0,59.3 0.0,60.8 4.5,61.3 5.2,61.3                    # nwg/nth
sea 25.8,70.95 25.8,72.0 25.0,80.0                                     # nwg/bar
sea 7.0,58.15 8.7,57.0                                                 # nth/ska
sea 8.35,56.0 7.0,55.1 5.6,54.0 4.78,52.9                              # nth/hel
sea 1.3,51.33 2.2,51.3 3.0,51.18                                       # nth/eng
sea -8.3,51.95 -6.2,49.8 -4.6,48.5                                     # iri/mao, eng/mao
sea -6.3,49.78 -5.5,50.1                                               # eng/iri
sea -5.8,54.6 -3.2,54.6                                                # iri/nao
sea -9.7,51.75 -15.0,50.5 -35.0,48.0                                   # nao/mao
sea -4.6,36.85 -4.4,35.1                                               # mao/wes
sea 0.5,40.9 4.0,40.3 8.6,40.6                                         # wes/lyo
sea 10.7,43.3 9.45,42.85                                               # lyo/tys
sea 9.1,41.45 9.2,41.15                                                # lyo/tys (Bonifacio)
sea 8.9,39.15 9.7,37.1                                                 # wes/tys
sea 12.6,37.75 10.95,36.95                                             # tys/ion
sea 15.5,38.22 15.72,38.27                                             # tys/ion (Messina)
sea 18.45,40.1 19.5,40.3                                               # ion/adr
sea 22.9,36.9 23.4,36.0 23.6,35.4                                      # ion/aeg
sea 24.5,35.1 24.3,34.0 23.5,31.5                                      # ion/eas
sea 26.0,35.2 27.5,35.6 28.0,36.2 28.3,36.85                           # aeg/eas
sea 18.3,59.85 22.6,58.9 23.8,59.0                                     # bal/bot
sea 28.95,41.18 29.25,41.18                                            # the Bosporus
sea 26.3,40.2 26.5,40.1                                                # the Dardanelles
sea 10.6,55.26 11.3,55.30                                              # the Great Belt, south
sea 10.6,55.46 11.3,55.50                                              # the Great Belt, north

# Water of no province
water marmara 28.0,40.7
water greatbelt 10.95,55.39

# Land of no province
neutral ireland -8.0,53.3
neutral iceland -19.0,64.9
neutral corsica 9.1,42.1
neutral sardinia 9.0,40.0
neutral mallorca 2.95,39.6
neutral menorca 4.1,39.95
neutral ibiza 1.4,38.98
neutral crete 24.9,35.2
neutral cyprus 33.0,35.0
neutral malta 14.4,35.9
neutral man -4.5,54.2
neutral africa 25.0,31.6
island con 29.4,41.05
island den 11.9,55.5                     # Zealand, joined to Sweden by the bridge                    # the Asian shore of the Bosporus

# ---------------------------------------------------------- where things go
# A province's unit point also names the piece of land or sea it lies in.
unit boh 14.8,49.7
unit bud 20.5,47.0
unit bur 4.9,47.3
unit gal 23.0,49.6
unit mos 38.5,53.8
unit mun 10.6,49.6
unit par 2.0,47.8
unit ruh 7.6,50.5
unit ser 20.8,43.9
unit sil 17.2,51.8
unit tyr 12.3,47.1
unit ukr 31.0,49.5
unit vie 15.8,47.7
unit war 21.5,51.5
unit alb 20.0,41.0
unit ank 35.0,40.5
unit apu 16.0,41.0
unit arm 41.0,39.5
unit bel 4.5,50.5
unit ber 12.8,53.3
unit bre -2.5,48.2
unit bul 25.2,42.5
unit cly -4.7,57.0
unit con 27.3,41.4
unit den 9.2,56.2
unit edi -3.3,57.0
unit fin 26.0,62.5
unit gas 0.0,44.5
unit gre 22.0,39.3
unit hol 5.8,52.4
unit kie 9.5,53.5
unit lon -0.5,51.8
unit lvn 25.5,57.0
unit lvp -2.7,53.9
unit mar 5.0,44.0
unit naf 2.0,34.0
unit nap 15.6,40.6
unit nwy 9.0,61.0
unit pic 2.3,49.9
unit pie 8.3,45.0
unit por -8.0,39.5
unit pru 20.5,54.0
unit rom 12.8,42.3
unit rum 24.6,44.6
unit sev 34.0,46.5
unit smy 29.5,38.5
unit spa -3.7,40.0
unit stp 34.0,62.5
unit swe 15.0,61.0
unit syr 37.5,34.5
unit tri 16.5,44.5
unit tun 9.5,34.5
unit tus 11.2,43.4
unit ven 11.8,45.2
unit wal -3.7,52.2
unit yor -1.5,54.0
unit swi 8.2,46.8
unit adr 15.5,43.0
unit aeg 25.0,38.5
unit bal 18.0,56.0
unit bar 37.0,69.8
unit bla 34.0,43.3
unit bot 20.0,62.0
unit eas 30.0,34.0
unit eng -2.5,50.0
unit hel 7.3,54.3
unit ion 18.5,37.0
unit iri -5.5,52.0
unit lyo 5.0,42.3
unit mao -10.5,45.0
unit nao -20.0,55.0
unit nth 3.0,55.5
unit nwg 0.0,66.0
unit ska 8.9,57.95
unit tys 12.0,40.0
unit wes 3.0,38.5
unit spa/nc -4.5,42.9
unit spa/sc -3.0,37.4
unit bul/ec 27.4,43.0
unit bul/sc 25.3,41.25
unit stp/nc 36.0,67.0
unit stp/sc 29.0,59.3

# Supply centres at their cities.
centre ank 32.85,39.93
centre bel 4.35,50.85
centre ber 13.4,52.52
centre bre -4.3,48.3
centre bud 19.04,47.5
centre bul 23.32,42.7
centre con 28.97,41.0
centre den 12.3,55.6
centre edi -3.19,55.95
centre gre 23.73,37.98
centre hol 4.9,52.37
centre kie 10.13,54.25
centre lon -0.13,51.5
centre lvp -2.9,53.4
centre mar 5.37,43.4
centre mos 37.6,55.75
centre mun 11.57,48.14
centre nap 14.27,40.9
centre nwy 10.75,59.95
centre par 2.35,48.86
centre por -9.0,38.8
centre rom 12.5,41.9
centre rum 26.1,44.43
centre ser 20.46,44.7
centre sev 33.6,44.7
centre smy 27.3,38.42
centre spa -3.7,40.42
centre stp 30.3,59.94
centre swe 18.0,59.4
centre tri 13.8,45.65
centre tun 10.1,36.7
centre ven 12.3,45.5
centre vie 16.37,48.2
centre war 21.0,52.23

# Names where the first spot beside the unit does not fit.
name con 29.9,40.9                       # the Asian shore
name den 10.0,57.35
name nap 14.3,37.6                       # Sicily: Calabria has room for the unit only
name cly -4.95,57.0                      # clear of Edinburgh's centre

# Ancient Mediterranean's provinces as on its board, in longitude,latitude
# (degrees east, degrees north). scripts/natural-earth-maps.sh cuts Natural
# Earth's land and sea with these lines into variants/ancmed.shapes.
# Format: scripts/maps/README.md. The board's neighbours are the truth and
# the borders serve them: Lusitania and Gaul have no coast, Chersonesus
# runs round the east of the Black Sea to Sinope, Thebes holds the Red Sea
# coast of Egypt, the Sahara meets Bayuda south of Phazania.

projection lcc 18 30 44 37          # Lambert conformal conic: central meridian, two parallels, origin
warp 31 35 0.8 4000                  # magnify by 1.8 at 31°E 35°N (the Aegean, the Levant), less farther out
view 22.3 36.8 3.8                   # the canvas centre and km per canvas unit (before the magnification)
canvas 1400 1040
min-island 4
island-reach 8
simplify 0.5

# ---------------------------------------------------------------- land borders
# Iberia and Gaul
land -9.5,38.6 -7,38.7 -5,39.0 -3,39.5 -1.2,40.4                      # lus/sag
land -1.2,40.4 -0.5,40.33 0.25,40.25 0.8,40.2                          # tar/sag
land -1.2,40.4 -1.0,41.5 -0.8,42.8                                     # lus/tar
land -0.8,42.8 -1.6,43.2 -1.9,43.6                                     # lus/gau
land -0.8,42.8 0.5,42.7 2.0,42.5                                       # tar/gau
land 2.0,42.5 3.17,42.43 3.6,42.43                                     # tar/mas
land 2.0,42.5 2.5,43.4 3.8,44.2 4.8,44.9 6.2,45.3                      # mas/gau
land 6.2,45.3 6.5,46.3 7.0,47.5 7.6,48.5 8.0,52.0                      # gau/rha
land 6.2,45.3 6.9,44.6                                                 # mas/rha
land 6.9,44.6 7.3,44.1 7.55,43.6                                       # mas/etr
# Italy
land 6.9,44.6 7.5,45.3 8.5,45.9 9.5,46.1 10.3,46.0                     # etr/rha
land 10.3,46.0 10.6,45.4 11.0,44.9                                     # etr/ven
land 11.0,44.9 11.9,45.0 12.6,44.95                                    # ven/rav
land 11.0,44.9 11.3,44.2 11.8,43.5                                     # etr/rav
land 11.8,43.5 11.6,42.8 11.2,42.4 11.0,42.3                           # etr/rom
land 11.8,43.5 12.6,43.1 13.3,42.6                                     # rav/rom
land 13.3,42.6 14.0,42.55 14.5,42.6                                    # rav/apu
land 13.3,42.6 14.0,41.8 14.4,41.4                                     # rom/apu
land 14.4,41.4 13.9,41.2 13.6,41.1                                     # rom/nea
land 14.4,41.4 15.3,40.9 16.2,40.4 16.7,40.0                           # apu/nea
land 10.3,46.0 11.0,46.6 12.0,46.7 13.0,46.6 13.7,46.5                 # ven/rha
land 13.7,46.5 14.2,45.9                                               # ven/vin
land 14.2,45.9 14.4,45.35 14.5,45.1                                    # ven/dal
# The Danube and the Balkans
land 13.7,46.5 13.4,47.5 13.5,48.3                           # rha/vin
land 13.5,48.3 12.5,48.9 11.5,52.0                                     # rha/sam
land 13.5,48.3 15.0,48.6 17.0,48.6 18.5,47.8 19.5,47.2                 # vin/sam
land 19.5,47.2 19.0,46.6 18.3,46.0 17.5,45.2                           # vin/ill
land 17.5,45.2 16.5,45.4 15.5,45.6 14.2,45.9                           # vin/dal
land 17.5,45.2 18.5,44.1 19.3,43.2 19.6,42.6                           # dal/ill
land 19.6,42.6 19.3,42.2 18.9,41.9                                     # dal/epi
land 19.6,42.6 20.2,42.0 20.8,41.3                                     # ill/epi
land 20.8,41.3 21.2,40.4 21.6,39.6                                     # epi/mac
land 21.6,39.6 21.3,39.2 21.0,38.9                                     # epi/ath
land 21.6,39.6 22.3,39.1 22.8,38.85                                    # ath/mac
land 22.8,37.97 22.95,37.93 23.1,37.88                               # ath/spa (the Isthmus)
land 20.8,41.3 21.8,42.0 23.0,42.6                                     # ill/mac
land 19.5,47.2 21.5,47.3 23.5,47.0 25.5,46.6                           # ill/sam
land 23.0,42.6 23.8,43.8 24.5,45.0 25.0,46.0 25.5,46.6                 # ill/dac
land 25.5,46.6 27.5,47.0 29.5,47.2 31.6,47.3                           # dac/sam
land 31.6,47.3 31.5,46.9 31.3,46.5 31.2,46.3                           # dac/che
land 31.6,47.3 34,47.5 37,47.5 40,47.0 45,46.5 55,46.5                 # che/sam
land 23.0,42.6 24.3,42.1 25.5,41.8                                     # mac/dac
land 25.5,41.8 24.9,41.2 24.8,40.7                                     # mac/byz
land 25.5,41.8 26.5,42.2 27.5,42.3 28.2,42.3                           # byz/dac
# Asia Minor
land 28.9,40.5 29.0,40.2 29.3,39.8                                     # byz/bit
land 29.3,39.8 28.5,38.9                                               # byz/gal
land 28.5,38.9 27.5,39.1 26.6,39.2                                     # byz/mil
land 28.5,38.9 29.5,38.2 30.5,37.6                                     # mil/gal
land 30.5,37.6 30.9,37.0 31.0,36.7                                     # mil/isa
land 30.5,37.6 32.0,37.9 33.5,37.8                                     # isa/gal
land 33.5,37.8 33.6,36.8 33.7,36.1                                     # isa/cap
land 29.3,39.8 31.0,40.4 32.5,40.8                                     # bit/gal
land 32.5,40.8 33.0,41.5 33.2,42.1                                     # bit/sip
land 32.5,40.8 34.0,40.0 35.0,39.5                                     # gal/sip
land 35.0,39.5 34.5,38.8 33.5,37.8                                     # gal/cap
land 35.0,39.5 36.8,39.8 38.5,39.8                                     # cap/sip
land 38.5,39.8 40.0,40.4 41.6,41.2                                     # arm/sip
land 41.6,41.2 41.6,41.5 41.5,41.8                                     # sip/che
land 41.6,41.2 42.5,41.8 44,42.5 55,43                                 # che/arm
land 38.5,39.8 38.6,38.5 38.5,37.5                                     # arm/cap
land 38.5,37.5 37.9,37.0 37.4,36.6                                     # cap/dam
land 38.5,37.5 40.0,37.2 43.0,37.0 55,36.5                             # arm/dam
land 37.4,36.6 36.6,36.8 36.05,36.85                                   # ant/cap
# Syria and Judaea
land 37.4,36.6 37.5,35.8 37.3,35.2                                     # ant/dam
land 37.3,35.2 36.3,35.2 35.6,35.2                                     # ant/sid
land 37.3,35.2 37.2,34.4 37.2,33.8                                     # sid/dam
land 37.2,33.8 38,33.8 40,34 55,34                                     # ara/dam
land 37.2,33.8 36.9,33.75                                              # sid/ara
land 36.9,33.75 35.5,33.75 35.1,33.75                                  # sid/tye
land 36.9,33.75 36.9,32.6                                              # tye/ara
land 36.9,32.6 35.2,32.6 34.7,32.6                                     # tye/jer
land 36.9,32.6 36.5,31.0                                               # jer/ara
land 36.5,31.0 37.0,30.5 40,30.0 55,29.5                               # ara/nab
land 36.5,31.0 35.75,30.85                                             # jer/nab
land 35.75,30.85 34.25,30.95                                           # jer/pet
land 34.25,30.95 34.35,31.3 34.1,31.5                                  # jer/sin
land 35.75,30.85 34.95,29.0                                            # pet/nab
land 34.25,30.95 34.95,29.0                                            # pet/sin
# Egypt and Libya
land 32.4,31.5 32.35,31.05                                             # ale/sin
land 32.35,31.05 32.4,30.4 32.55,30.0 32.6,29.8                        # thb/sin
land 32.35,31.05 31.6,30.4 31.2,30.1                                   # ale/thb
land 31.2,30.1 30.5,30.3 29.5,30.7                                     # ale/mem
land 29.5,30.7 29.2,31.0 29.0,31.2                                     # ale/cyr
land 29.5,30.7 28.5,29.5                                               # cyr/mem
land 31.2,30.1 31.2,28.5 31.0,26.5                                     # mem/thb (the Nile)
land 31.0,26.5 32.0,24.5 33.0,20.0                                     # thb/bay
land 31.0,26.5 29.5,27.0 28.0,27.5                                     # mem/bay
land 28.0,27.5 28.5,29.5                                               # mem/mar
land 28.5,29.5 24,29.6 20.0,29.6                                       # cyr/mar
land 20.0,29.6 19.3,30.1 18.8,30.5                                     # cyr/lep
land 28.0,27.5 25,26.5 22.0,25.5                                       # mar/bay
land 20.0,29.6 18.5,28.5 17.0,28.0                                     # lep/mar
land 17.0,28.0 19.5,26.7 22.0,25.5                                     # mar/pha
land 22.0,25.5 18.5,24.5 15.0,24.5                                     # pha/bay
land 15.0,24.5 15.0,20.0                                               # sah/bay
land 17.0,28.0 14.5,29.5 12.0,30.5                                     # lep/pha
land 12.0,30.5 11.7,32.0 11.5,33.0 11.4,33.4                           # num/lep
land 12.0,30.5 10.5,31.5 9.5,32.0                                      # num/pha
land 9.5,32.0 8.5,29.0                                                 # cir/pha
land 8.5,29.0 11.5,26.5 15.0,24.5                                      # pha/sah
land 8.5,29.0 5.0,30.5 2.0,31.5                                        # cir/sah
land 2.0,31.5 -3,31 -12,30.5                                           # mau/sah
land 2.0,31.5 3.5,34.0 4.0,35.8                                        # cir/mau
land 4.0,35.8 4.0,36.9 4.0,37.1                                        # mau/car
land 4.0,35.8 7.0,35.8 9.8,35.8                                        # cir/car
land 9.8,35.8 10.3,36.0 10.7,36.1                                      # car/tha
land 9.8,35.8 10.0,34.5                                                # cir/tha
land 10.0,34.5 10.4,34.4 10.9,34.3                                     # tha/num
land 10.0,34.5 9.5,32.0                                                # cir/num

# ------------------------------------------------------------------ sea borders
sea -5.45,36.15 -5.45,35.8                                             # ibe/ber (Gibraltar)
sea -8.9,37.3 -9.2,35.0 -9.4,31.3                                      # ibe/the ocean, off Cape St Vincent
sea -0.5,40.33 0.25,40.25 0.8,40.2 2.4,39.75 3.3,39.75 4.3,39.9 8.45,40.0   # lig/ber, through Mallorca
sea 8.6,38.95 8.7,37.0                                                 # ber/pun
sea 9.2,41.45 9.2,41.2                                                 # lig/tyn (Bonifacio)
sea 9.5,42.3 11.0,42.1 12.0,41.9                                       # lig/tyn
sea 9.6,39.1 12.45,38.05                                               # tyn/pun
sea 15.6,38.26 15.7,38.26                                              # tyn/aus (Messina)
sea 13.5,37.3 13.0,35.0                                                # pun/aus
sea 10.9,35.3 13.0,35.0                                                # pun/got
sea 13.0,35.0 18.0,34.0                                                # aus/got
sea 18.0,34.0 18.15,33.9                                               # got/mes
sea 18.0,34.0 18.5,37.0                                                # aus/mes
sea 18.5,37.0 16.5,38.35                                               # ion/aus
sea 18.5,37.0 21.8,36.95                                               # ion/mes
sea 18.5,40.05 19.45,40.3                                              # ion/adr (Otranto)
sea 15.2,32.0 19.0,32.8                                                # got/gos
sea 20.3,31.9 19.0,32.8                                                # gos/lib
sea 19.0,32.8 18.15,33.9                                               # got/lib
sea 18.15,33.9 23.7,35.3                                               # mes/lib
sea 23.1,36.5 23.7,35.4                                                # aeg/mes
sea 25.0,35.0 30.0,31.0                                                # egy/lib
sea 26.0,35.25 28.0,36.95                                              # aeg/min
sea 26.2,35.1 28.6,34.8                                                # egy/min
sea 28.6,34.8 29.3,36.5                                                # cil/min
sea 28.6,34.8 32.6,34.9                                                # egy/cil
sea 34.4,35.55 36.2,34.5                                               # cil/syr
sea 33.0,34.7 33.0,32.6                                                # egy/syr
sea 31.5,31.3 33.0,32.6                                                # egy/gop
sea 33.0,32.6 35.0,32.0                                                # gop/syr
sea 28.95,41.18 29.25,41.18                                            # the Bosporus
sea 26.3,40.2 26.5,40.1                                                # the Dardanelles
sea 36.3,45.3 36.9,45.3                                                # the Strait of Kerch

# Mallorca, Corsica and Crete drawn a little fuller, so that a unit fits on them.
bridge 2.25,39.62 2.8,40.05 3.3,40.05 3.6,39.72 3.1,39.15 2.55,39.3
bridge 8.55,42.6 9.4,42.95 9.55,42.3 9.4,41.6 8.75,41.6 8.5,42.05
bridge 24.3,35.38 24.7,35.47 25.2,35.4 25.5,35.25 25.1,34.92 24.5,34.92 24.2,35.15

# The Strait of Messina a little wider, so that the Tyrrhenian meets the
# Ausonian Sea by more than a pixel.
cut 15.60,38.32 15.72,38.30 15.66,38.12 15.62,38.05 15.56,38.05 15.58,38.20

# Neighbours that the picture cannot let meet (the board's graph is not
# planar there): armies cross the straits of Gibraltar and Messina as on
# the board, fleets pass between them; Thebes reaches the Gulf of Pelusium
# behind Alexandria's coast; four seas meet at one point west of Crete.
across sag mau
across nea sic
across cor sad
across bal tar 80                        # the Baleares, reached by fleets
across bal sag 80
across thb gop
across aus lib

# Water and land of no province
water ocean -4.0,44.5
water marmara 28.0,40.7
water azov 36.5,46.3
neutral malta 14.4,35.9
island byz 27.5,39.8                     # the Troad, across the Dardanelles
island che 34.2,45.2                     # the Crimea, across the Strait of Kerch

# ---------------------------------------------------------- where things go
unit adr 15.5,43.0
unit aeg 25.0,38.5
unit ale 30.5,30.8
unit ant 36.7,36.0
unit apu 16.0,41.0
unit ara 38.5,31.8
unit arm 41.0,39.0
unit ath 22.8,38.45
unit aus 16.5,36.0
unit bal 2.9,39.6
unit bay 27.0,25.0
unit ber 1.0,37.5
unit bit 31.0,41.0
unit bla 34.0,43.3
unit byz 27.0,41.5
unit cap 36.0,38.5
unit car 7.0,36.5
unit che 38.5,45.0
unit cil 31.0,35.8
unit cir 6.0,34.0
unit cor 9.1,42.1
unit cre 24.9,35.2
unit cyp 33.0,35.0
unit cyr 23.0,31.5
unit dac 26.5,45.0
unit dal 16.2,44.2
unit dam 38.5,35.0
unit egy 28.5,33.0
unit epi 20.3,40.2
unit etr 10.0,44.3
unit gal 32.0,39.2
unit gau 2.5,46.0
unit gop 32.8,31.8
unit gos 18.5,31.4
unit got 14.5,34.0
unit ibe -7.0,36.0
unit ill 21.5,44.5
unit ion 19.5,38.0
unit isa 32.2,37.2
unit jer 35.5,31.7
unit lep 14.0,31.0
unit lib 24.0,33.5
unit lig 6.0,41.0
unit lus -5.0,40.5
unit mac 23.0,41.0
unit mar 24.0,28.0
unit mas 4.5,43.8
unit mau -3.0,33.5
unit mem 29.5,28.5
unit mes 21.0,35.5
unit mil 28.0,37.8
unit min 27.0,35.3
unit nab 36.5,28.5
unit nea 16.0,39.5
unit num 10.5,32.8
unit pet 35.0,30.45
unit pha 16.0,26.5
unit pun 11.0,37.6
unit rav 11.9,44.3
unit ree 34.5,27.0
unit rha 10.5,46.7
unit rom 12.9,42.0
unit sag -3.0,38.0
unit sah 5.0,27.0
unit sad 9.0,40.0
unit sam 24.0,47.7
unit sic 14.2,37.5
unit sid 36.4,34.4
unit sin 33.8,29.8
unit sip 37.0,40.8
unit spa 22.3,37.3
unit syr 34.0,33.6
unit tar 1.0,41.7
unit tha 10.5,35.2
unit thb 32.0,27.5
unit tye 36.0,33.2
unit tyn 12.0,39.8
unit ven 11.8,45.6
unit vin 16.5,47.3

# Supply centres at their cities.
centre ale 29.9,31.2
centre ant 36.2,36.2
centre ath 23.73,37.98
centre bal 2.65,39.57
centre byz 28.97,41.0
centre car 10.3,36.85
centre cir 6.6,36.37
centre cre 24.9,35.3
centre cyp 33.3,35.1
centre cyr 21.86,32.82
centre dal 16.44,43.51
centre dam 36.3,33.5
centre jer 35.23,31.78
centre lep 14.29,32.64
centre mac 22.94,40.64
centre mas 5.37,43.3
centre mem 31.25,29.85
centre mil 27.28,37.53
centre nea 14.25,40.85
centre num 9.0,33.5
centre pet 35.44,30.33
centre rav 12.2,44.42
centre rom 12.5,41.9
centre sag -0.27,39.68
centre sad 9.1,39.2
centre sic 13.36,38.12
centre sid 35.5,33.9
centre sip 35.15,42.02
centre spa 22.43,37.07
centre tha 11.0,35.6
centre thb 32.65,25.7
centre tye 35.2,33.27
centre vin 16.37,48.2

# Names where the first spot beside the unit does not fit; beside the
# small islands, over the water.
name bal 3.0,40.25 offshore
name cyp 33.4,35.6 offshore
name cre 24.9,34.75 offshore
name cor 9.3,43.25 offshore

name nea 16.35,38.7
name ath 21.95,39.1
name rav 12.65,43.35
name sic 14.7,37.05
name spa 21.7,37.75

! A club ranking with Analyse's control language: `dip rate club.ctl`
! Result tables: spring.res and autumn.res (RANGLIST), league.txt (18XX),
! online.csv (CSV). Run from this directory, or give the files on the
! command line: dip rate club.ctl spring.res autumn.res league.txt online.csv

DEFINE OPTIONS
  VOID q              { -q: no game list }
  FLOATINGPOINT w     { -w0.5: weight of games older than a year }
END

COMMANDLINE
#IF NFILES = 0          { no result tables on the command line: take ours }
PARAMETER spring.res autumn.res league.txt online.csv
#ENDIF

SET oldweight = 0.5
#IF OPT$W
SET oldweight = PARM$W
#ENDIF
GSET title := 'Club ranking 2024'

! The league writes centres (P.1) and C-Diplo points (P.2); rate on P.2.
DEFINE SCANMODE LEAGUE league*.txt
  MODE 18XX
  SIGN @
  READPOINTS P.2
END

SCANFILES
REFDATE 2024-12-31

! Recent games count fully, older ones with `oldweight`; the factor *nnn of
! a game scales it (100 = normal).
DEFINE SELECTION weighted
  SELECT FACTOR / 100 * if(AGE <= 365, 1, oldweight)
END

DEFINE ITERATION precise
  MINIMUM 5
  MAXIMUM 500
  EPSILON 1e-24
END

DEFINE PRINTPLAYER ranking
  HEADER print('%s\n%4s  %-14s %8s %5s %6s', title, 'Rank', 'Player', 'Strength', 'Games', 'Group')
  PLAYER print('%4d. %-14s %8.3f %5d %6d', R, NAME, LEVEL, N, GROUP)
  TRAILOR print('%d players, strengths sum to %d', NP, NP)
END

DEFINE PRINTGAME games
  HEADER print('%d-%02d-%02d %s (weight %.2f, strength %.3f)', YEAR, MONTH, DAY, TEXT, WEIGHT, GAMELEVEL)
  PLAYER print('  %-14s %6.3f %8.3f', NAME, P, GLEVEL)
END

! Players of the largest group first; within a group by strength.
DEFINE SORTMODE bygroup
  SORT LEVEL - 1000 * GROUP
END

DEFINE JOB rank
  SELECT $1
  TRANSFORMATION DEFAULT          { P/MEAN: points relative to the game's mean }
  ITERATION precise
  CALCULATE
  SORT bygroup
  PRINT ranking
ENDJOB

JOB rank(weighted)
#IF NOT OPT$Q
ECHO ''
PRINTGAMES games
#ENDIF

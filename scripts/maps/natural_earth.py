#!/usr/bin/env python3
"""Turns Natural Earth's land polygons and a hand-written border file
(`scripts/maps/VARIANT.geo`, in longitude/latitude) into a variant's map
(`variants/VARIANT.shapes`, docs/map-shapes.md).

Run by scripts/natural-earth-maps.sh, which installs shapely and fetches
the data; the build and the tests only read the committed output.

How a map is made:
1. Natural Earth's 1:10m land is projected (Lambert conformal conic, then
   an optional gentle magnification of the crowded middle and of small
   spots, `lens`), scaled onto
   the canvas, clipped to it; islands smaller than `min-island` canvas
   units² are dropped, and the coastline is simplified.
2. The `land` lines (inland borders, drawn by hand or taken from two
   countries' common border, `frontier`) cut the land into pieces and the
   `sea` lines (borders between seas) cut the water; each line only has
   to cross its land or water from shore to shore (or to another line).
3. A piece takes the province whose `unit` point lies in it, or a
   `neutral`/`water` label (land or water of no province), or an
   `island` label; an unlabelled piece joins the piece it shares the
   longest border with, else the nearest province within `island-reach`,
   else it is land (or water) of no province.
4. Pieces of one province are merged, rounded to whole canvas units and
   written with the unit, coast, name and centre points.
5. Checks: every province has a shape; every point lies inside its own
   province, away from its border; the provinces that share a border are
   exactly the variant's neighbours (impassable provinces aside; a pair
   named by an `across` line, where the board's graph is not planar, need
   only come within ACROSS_REACH units, or as many as the line says); a split coast's point is nearest
   to the seas of that coast.

A `.geo` file with a `country-data` line (World) is built by countries.py
instead: provinces made of Natural Earth's countries, the same checks.
"""

import json
import math
import os
import re
import shlex
import sys
from collections import defaultdict

import shapely
import shapely.ops
from shapely.geometry import LineString, MultiLineString, Point, Polygon, box
from shapely.ops import polygonize, unary_union


def fail(msg):
    sys.exit(f"natural_earth.py: {msg}")


# ---------------------------------------------------------------- input

def decode_arcs(t):
    """A TopoJSON file's arcs as lists of (lon, lat)."""
    sx, sy = t["transform"]["scale"]
    tx, ty = t["transform"]["translate"]
    arcs = []
    for a in t["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in a:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def continuous_longitudes(ring):
    """The ring's points with each longitude shifted by whole turns so that
    no step jumps by more than 180° (a ring across the antimeridian)."""
    out = list(ring)
    shift = 0.0
    for k in range(1, len(out)):
        lon, lat = out[k]
        prev = out[k - 1][0]
        while lon + shift - prev > 180:
            shift -= 360
        while lon + shift - prev < -180:
            shift += 360
        out[k] = (lon + shift, lat)
    return out


def frontier_lines(path, frontiers):
    """The border two countries share, from a TopoJSON file of countries
    (Natural Earth's admin-0, where neighbours share their arcs): for
    each `frontier` line, (line number, [polyline of (lon, lat)]),
    cut between its FROM and TO points when it has them."""
    t = json.load(open(path))
    arcs = decode_arcs(t)
    uses = {}

    def walk(a, acc):
        for x in a:
            if isinstance(x, list):
                walk(x, acc)
            else:
                acc.add(x if x >= 0 else ~x)

    for g in t["objects"]["countries"]["geometries"]:
        walk(g.get("arcs", []), uses.setdefault(g["properties"]["name"], set()))
    out = []
    for file, ln, a, b, ends in frontiers:
        for c in (a, b):
            if c not in uses:
                fail(f"{file}:{ln}: no country `{c}` in {path}")
        shared = sorted(uses[a] & uses[b])
        if not shared:
            fail(f"{file}:{ln}: {a} and {b} share no border")
        merged = shapely.ops.linemerge(MultiLineString([arcs[i] for i in shared]))
        parts = list(getattr(merged, "geoms", [merged]))
        if ends:
            f, to = Point(ends[0]), Point(ends[1])
            line = min(parts, key=lambda g: g.distance(f) + g.distance(to))
            d0, d1 = sorted((line.project(f), line.project(to)))
            parts = [shapely.ops.substring(line, d0, d1)]
        out.extend((ln, list(g.coords)) for g in parts if g.length > 0)
    return out


def decode_topojson(path, obj="land"):
    """The polygons of a TopoJSON object as lists of rings of (lon, lat)."""
    t = json.load(open(path))
    arcs = decode_arcs(t)

    def ring(ids):
        out = []
        for i in ids:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        # Rings that cross the antimeridian (Chukotka, so all of Eurasia)
        # jump by 360°: keep their longitudes continuous instead.
        out = continuous_longitudes(out)
        mid = (min(p[0] for p in out) + max(p[0] for p in out)) / 2 if out else 0
        turn = -360 * round(mid / 360)
        return [(lon + turn, lat) for lon, lat in out]

    polys = []

    def geom(g):
        if g["type"] == "Polygon":
            polys.append([ring(r) for r in g["arcs"]])
        elif g["type"] == "MultiPolygon":
            for p in g["arcs"]:
                polys.append([ring(r) for r in p])
        elif g["type"] == "GeometryCollection":
            for h in g["geometries"]:
                geom(h)

    geom(t["objects"][obj])
    return polys


def parse_lonlat(word, file, ln):
    try:
        lon, lat = word.split(",")
        return (float(lon), float(lat))
    except ValueError:
        fail(f"{file}:{ln}: expected lon,lat, found `{word}`")


class Geo:
    """A `.geo` file: projection, canvas, border lines and labels."""

    def __init__(self, path):
        self.path = path
        self.projection = None
        self.view = None
        self.warp = None
        self.lenses = []  # (lon, lat, k, radius km)
        self.canvas = None
        self.min_island = 4.0
        self.reach = 8.0
        self.tolerance = 0.6
        self.land_lines = []
        self.frontiers = []  # (file, line, country, country, [from, to])
        self.sea_lines = []
        self.bridges = []
        self.cuts = []
        self.units = {}  # abbr or abbr/coast -> (lon, lat)
        self.names = {}
        self.centres = {}
        self.offshore = set()  # names beside an island too small to hold them
        self.neutral = []  # (name, lon, lat)
        self.water = []
        self.islands = []  # (abbr, lon, lat)
        self.across = {}  # {a, b} -> how far apart the neighbours may lie
        self.projection_kind = "lcc"
        self.bumps = []  # `warp` lines of an equirect map: (lon, lat, k, radius) each
        self.country_data = None  # countries-*.json: provinces made of countries (countries.py)
        self.countries = defaultdict(list)  # country name -> provinces that share it
        self.seeds = defaultdict(list)  # abbr -> more points that pull the province's border out
        self.parts = defaultdict(list)  # (country, abbr) -> the only seeds of abbr in that country
        for ln, raw in enumerate(open(path), 1):
            line = raw.split("#")[0].split()
            if not line:
                continue
            kw, args = line[0], line[1:]
            ll = lambda ws: [parse_lonlat(w, path, ln) for w in ws]
            if kw == "projection":
                self.projection_kind = args[0]
                self.projection = [float(a) for a in args[1:]]
            elif kw == "country-data":
                self.country_data = args[0]
            elif kw == "country":
                if len(args) < 2:
                    fail(f"{path}:{ln}: expected `country ABBR NAME...`")
                for name in shlex.split(" ".join(args[1:])):
                    self.countries[name].append(args[0])
            elif kw == "seed":
                self.seeds[args[0]] += ll(args[1:])
            elif kw == "part":
                # `part ABBR "COUNTRY" LON,LAT...`: ABBR takes the part of
                # the country nearest these points (and only that part).
                words = shlex.split(" ".join(args))
                if len(words) < 3:
                    fail(f"{path}:{ln}: expected `part ABBR COUNTRY LON,LAT...`")
                self.countries[words[1]].append(words[0])
                self.parts[(words[1], words[0])] += ll(words[2:])
            elif kw == "view":
                self.view = [float(a) for a in args]
            elif kw == "warp":
                self.warp = [float(a) for a in args]
                self.bumps.append(self.warp)
            elif kw == "lens":
                self.lenses.append([float(a) for a in args])
            elif kw == "canvas":
                self.canvas = (int(args[0]), int(args[1]))
            elif kw == "min-island":
                self.min_island = float(args[0])
            elif kw == "island-reach":
                self.reach = float(args[0])
            elif kw == "simplify":
                self.tolerance = float(args[0])
            elif kw == "land":
                self.land_lines.append((ln, ll(args)))
            elif kw == "frontier":
                if len(args) not in (2, 4):
                    fail(f"{path}:{ln}: expected `frontier COUNTRY COUNTRY [FROM TO]`")
                names = [a.replace("_", " ") for a in args[:2]]
                self.frontiers.append((path, ln, *names, ll(args[2:])))
            elif kw == "sea":
                self.sea_lines.append((ln, ll(args)))
            elif kw == "bridge":
                self.bridges.append(ll(args))
            elif kw == "cut":
                self.cuts.append(ll(args))
            elif kw == "unit":
                self.units[args[0]] = ll(args[1:2])[0]
            elif kw == "name":
                self.names[args[0]] = ll(args[1:2])[0]
                if args[2:] == ["offshore"]:
                    self.offshore.add(args[0])
                elif args[2:]:
                    fail(f"{path}:{ln}: expected `name ABBR LON,LAT [offshore]`")
            elif kw == "centre":
                self.centres[args[0]] = ll(args[1:2])[0]
            elif kw == "neutral":
                self.neutral.append((args[0], *ll(args[1:2])[0]))
            elif kw == "water":
                self.water.append((args[0], *ll(args[1:2])[0]))
            elif kw == "across":
                if len(args) not in (2, 3):
                    fail(f"{path}:{ln}: expected `across ABBR ABBR [UNITS]`")
                self.across[frozenset(args[:2])] = float(args[2]) if len(args) == 3 else ACROSS_REACH
            elif kw == "island":
                self.islands.append((args[0], *ll(args[1:2])[0]))
            else:
                fail(f"{path}:{ln}: unknown line `{kw}`")


class Variant:
    """What the map needs from a `.variant` file: provinces, coasts, neighbours."""

    def __init__(self, path):
        self.terrain = {}
        self.coasts = defaultdict(list)
        self.adj = defaultdict(set)  # province -> provinces
        self.coast_adj = defaultdict(set)  # prov/coast -> provinces
        self.centres = set()
        for raw in open(path):
            line = raw.split("#")[0]
            words = re.findall(r'"[^"]*"|\S+', line)
            if not words:
                continue
            if words[0] == "province":
                abbr, terrain = words[1], words[3]
                self.terrain[abbr] = terrain
                for w in words[4:]:
                    if w in ("center", "centre"):
                        self.centres.add(abbr)
                    if w.startswith("coasts="):
                        self.coasts[abbr] = w[7:].split(",")
            elif words[0] == "border":
                src = words[2]
                a = src.split("/")[0]
                for t in words[3:]:
                    b = t.split("/")[0]
                    self.adj[a].add(b)
                    self.adj[b].add(a)
                    if "/" in src:
                        self.coast_adj[src].add(b)
                    if "/" in t:
                        self.coast_adj[t].add(a)


# ----------------------------------------------------------- projection

class Projection:
    def __init__(self, geo):
        self.kind = geo.projection_kind
        if self.kind == "equirect":
            self.lon0 = geo.projection[0]
            self.warp = None
            self.lenses = []
            self.bumps = []
            for lon, lat, k, radius in geo.bumps:
                # Centred where the bumps before it have moved the point.
                self.bumps.append((self.bumped(self.km(lon, lat)), k, radius))
            clon, clat, self.kmpx = geo.view
            self.c = self.km(clon, clat)
            self.w, self.h = geo.canvas
            return
        lon0, lat1, lat2, lat0 = geo.projection
        r = math.radians
        self.lon0 = lon0
        if lat1 == lat2:
            self.n = math.sin(r(lat1))
        else:
            self.n = math.log(math.cos(r(lat1)) / math.cos(r(lat2))) / math.log(
                math.tan(math.pi / 4 + r(lat2) / 2) / math.tan(math.pi / 4 + r(lat1) / 2)
            )
        self.F = math.cos(r(lat1)) * math.tan(math.pi / 4 + r(lat1) / 2) ** self.n / self.n
        self.rho0 = self.F / math.tan(math.pi / 4 + r(lat0) / 2) ** self.n
        self.warp = geo.warp
        if self.warp:
            self.wc = self.km(self.warp[0], self.warp[1])
        self.lenses = []
        for lon, lat, k, radius in geo.lenses:
            # The spot as the lenses before this one moved it.
            self.lenses.append((self.lensed(self.warped(self.km(lon, lat))), k, radius))
        clon, clat, self.kmpx = geo.view
        self.c = self.lensed(self.warped(self.km(clon, clat)))
        self.w, self.h = geo.canvas

    def km(self, lon, lat):
        r = math.radians
        if self.kind == "equirect":
            return (6371 * r(lon - self.lon0), 6371 * r(lat))
        lat = max(min(lat, 89.0), -89.0)
        rho = self.F / math.tan(math.pi / 4 + r(lat) / 2) ** self.n
        th = self.n * r(lon - self.lon0)
        return (6371 * rho * math.sin(th), 6371 * (self.rho0 - rho * math.cos(th)))

    def warped(self, p):
        """Magnifies the middle by 1+k, less and less out to the radius."""
        if self.kind == "equirect":
            return self.bumped(p)
        if not self.warp:
            return p
        k, radius = self.warp[2], self.warp[3]
        dx, dy = p[0] - self.wc[0], p[1] - self.wc[1]
        d = math.hypot(dx, dy)
        f = (1 + k) / (1 + k * d / radius)
        return (self.wc[0] + dx * f, self.wc[1] + dy * f)

    def bumped(self, p):
        """On a world map each `warp` magnifies a crowded region by 1+k at
        its middle, fading out (a Gaussian of the radius), so that the rest of
        the world, and the seam, stay as they are."""
        for (cx, cy), k, radius in self.bumps:
            dx, dy = p[0] - cx, p[1] - cy
            f = 1 + k * math.exp(-(dx * dx + dy * dy) / (radius * radius))
            p = (cx + dx * f, cy + dy * f)
        return p

    def lensed(self, p):
        """Magnifies each lens's spot by 1+k, fading to nothing well beyond
        its radius (1 + k / (1 + (d/r)²): the far map does not move, and
        the ring around the spot is squeezed by at most k/8)."""
        for (cx, cy), k, radius in self.lenses:
            dx, dy = p[0] - cx, p[1] - cy
            f = 1 + k / (1 + (dx * dx + dy * dy) / (radius * radius))
            p = (cx + dx * f, cy + dy * f)
        return p

    def __call__(self, lon, lat):
        x, y = self.lensed(self.warped(self.km(lon, lat)))
        return (self.w / 2 + (x - self.c[0]) / self.kmpx, self.h / 2 - (y - self.c[1]) / self.kmpx)

    def line(self, pts, step=0.2):
        """A lon/lat polyline, densified so that it curves as the projection does."""
        out = []
        for (a, b) in zip(pts, pts[1:]):
            n = max(1, int(max(abs(b[0] - a[0]), abs(b[1] - a[1])) / step))
            for i in range(n):
                t = i / n
                out.append(self(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        out.append(self(*pts[-1]))
        return out


# ----------------------------------------------------------------- map

def build(geo, variant, land_json):
    proj = Projection(geo)
    W, H = geo.canvas
    frame = box(0, 0, W, H)
    # The part of the world that can reach the canvas, in lon/lat.
    corners = []
    for lon in range(-180, 181, 2):
        for lat in range(-80, 86, 2):
            x, y = proj(lon, lat)
            if -200 <= x <= W + 200 and -200 <= y <= H + 200:
                corners.append((lon, lat))
    lon_min = min(c[0] for c in corners) - 4
    lon_max = max(c[0] for c in corners) + 4
    lat_min = min(c[1] for c in corners) - 4
    lat_max = max(c[1] for c in corners) + 4
    window = box(lon_min, lat_min, lon_max, lat_max)

    polys = []
    for p in decode_topojson(land_json):
        P = Polygon(p[0], p[1:])
        if not P.is_valid:
            P = shapely.make_valid(P)
        if not P.intersects(window):
            continue
        P = P.intersection(window)
        for Q in getattr(P, "geoms", [P]):
            if Q.geom_type != "Polygon" or Q.is_empty:
                continue
            ext = [proj(*c) for c in Q.exterior.coords]
            holes = [[proj(*c) for c in h.coords] for h in Q.interiors]
            P = Polygon(ext, holes)
            polys.append(P if P.is_valid else shapely.make_valid(P))
    for b in geo.bridges:
        polys.append(Polygon(proj.line(b + b[:1], 0.05)))
    land = unary_union(polys).intersection(frame)
    for c in geo.cuts:
        land = land.difference(Polygon(proj.line(c + c[:1], 0.05)))
    # Drop specks, then simplify the coast.
    kept = [g for g in getattr(land, "geoms", [land]) if g.geom_type == "Polygon" and g.area >= geo.min_island]
    whole = unary_union(kept)
    land = whole.simplify(geo.tolerance, preserve_topology=True)
    # Simplifying may pull land off the canvas's edge, leaving a hair of
    # water along it that joins seas far apart: the land at the edge stays.
    lost = whole.intersection(frame.exterior.buffer(geo.tolerance * 2)).difference(land)
    if lost.area > 0.01:
        land = unary_union([land, lost]).intersection(frame)
    land = unary_union([g for g in getattr(land, "geoms", [land]) if g.area >= geo.min_island])
    land_prep = shapely.prepared.prep(land)

    # The lines on the canvas: the hand-drawn ones densified so that they
    # curve as the projection does; countries' borders (`frontier`) as
    # fine as the coast, simplified the same way.
    land_canvas = [(ln, proj.line(pts)) for ln, pts in geo.land_lines]
    if geo.frontiers:
        countries = os.path.join(os.path.dirname(land_json), "countries-10m.json")
        for ln, pts in frontier_lines(countries, geo.frontiers):
            line = LineString([proj(*p) for p in pts]).simplify(geo.tolerance)
            land_canvas.append((ln, list(line.coords)))
    sea_canvas = [(ln, proj.line(pts)) for ln, pts in geo.sea_lines]
    land_lines = MultiLineString([extended(pts) for _, pts in land_canvas])
    sea_lines = MultiLineString([extended(pts) for _, pts in sea_canvas])
    coast = land.boundary
    noded = unary_union([coast, frame.boundary, land_lines, sea_lines])
    segs = list(getattr(noded, "geoms", [noded]))
    mids = shapely.line_interpolate_point(segs, 0.5, normalized=True)
    on_coast = shapely.distance(mids, unary_union([coast, frame.boundary])) < 1e-6
    near_land = shapely.distance(mids, land_lines) < 1e-6
    near_sea = shapely.distance(mids, sea_lines) < 1e-6
    in_land = shapely.contains(land, mids)
    land_segs, sea_segs = [], []
    for s, oc, nl, ns, il in zip(segs, on_coast, near_land, near_sea, in_land):
        if oc:
            land_segs.append(s)
            sea_segs.append(s)
        elif nl and il:
            land_segs.append(s)
        elif ns and not il:
            sea_segs.append(s)
    land_faces = [f for f in polygonize(land_segs) if land_prep.contains(f.point_on_surface())]
    water_faces = [f for f in polygonize(sea_segs) if not land_prep.contains(f.point_on_surface())]
    # A line that does not reach the shore or another line at both ends
    # closes no piece: it is lost, with the border it was to draw.
    for faces, lines, segs, what in ((land_faces, land_canvas, land_segs, "land"), (water_faces, sea_canvas, sea_segs, "sea")):
        edges = unary_union([f.boundary for f in faces])
        edge_tree = shapely.STRtree(list(getattr(edges, "geoms", [edges])))
        seg_tree = shapely.STRtree(segs)
        for ln, pts in lines:
            L = LineString(pts).intersection(frame)
            if L.is_empty:
                continue
            near = [segs[i] for i in seg_tree.query(L, predicate="dwithin", distance=1e-6)]
            mids_ = shapely.line_interpolate_point(near, 0.5, normalized=True) if near else []
            part = unary_union([g for g, m in zip(near, mids_) if L.distance(m) < 1e-6])
            lost = 0.0
            for g in getattr(part, "geoms", [part]):
                if g.is_empty:
                    continue
                m = g.interpolate(0.5, normalized=True)
                if not len(edge_tree.query(m, predicate="dwithin", distance=1e-6)):
                    lost += g.length
            if lost > 1.0:
                print(f"problem: {geo.path}:{ln}: {lost:.0f} units of this {what} line close no piece (an end short of the shore or of another line?)", file=sys.stderr)

    sea_provs = {p for p, t in variant.terrain.items() if t == "sea"}
    land_provs = {p for p, t in variant.terrain.items() if t != "sea"}
    for p in variant.terrain:
        if p not in geo.units:
            fail(f"{geo.path}: no `unit {p} lon,lat`")
    inside = lambda xy: 0 <= xy[0] <= W and 0 <= xy[1] <= H
    land_labels = [(p, proj(*geo.units[p])) for p in land_provs]
    land_labels += [(p, proj(lon, lat)) for p, lon, lat in geo.islands]
    land_labels += [("-" + n, proj(lon, lat)) for n, lon, lat in geo.neutral]
    sea_labels = [(p, proj(*geo.units[p])) for p in sea_provs]
    sea_labels += [("-" + n, proj(lon, lat)) for n, lon, lat in geo.water]
    land_labels = [(n, xy) for n, xy in land_labels if inside(xy) or not n.startswith("-")]
    sea_labels = [(n, xy) for n, xy in sea_labels if inside(xy) or not n.startswith("-")]
    if DEBUG:
        debug_png(DEBUG, W, H, land_faces, water_faces, land_labels + sea_labels)
    land_owner = assign(land_faces, land_labels, geo.reach, "land")
    water_owner = assign(water_faces, sea_labels, geo.reach, "water")

    shapes = {}
    for faces, owner in ((land_faces, land_owner), (water_faces, water_owner)):
        by = defaultdict(list)
        for f, o in zip(faces, owner):
            by[o].append(f)
        for o, fs in by.items():
            shapes.setdefault(o, []).append(unary_union(fs))
    shapes = {k: unary_union(v) for k, v in shapes.items()}
    return proj, land, shapes


DEBUG = None


def debug_png(path, W, H, land_faces, water_faces, labels):
    """A picture of the pieces before they are labelled (needs Pillow)."""
    from PIL import Image, ImageDraw
    import random
    rnd = random.Random(1)
    img = Image.new("RGB", (W * 2, H * 2), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for faces, base in ((land_faces, (200, 180, 120)), (water_faces, (100, 150, 220))):
        for f in faces:
            col = tuple(min(255, max(0, c + rnd.randint(-50, 50))) for c in base)
            for p in getattr(f, "geoms", [f]):
                d.polygon([(x * 2, y * 2) for x, y in p.exterior.coords], fill=col, outline=(0, 0, 0))
    for n, (x, y) in labels:
        d.text((x * 2, y * 2), n, fill=(0, 0, 0))
    img.save(path)


def extended(pts, by=5.0):
    """The line made longer at both ends, so that it surely crosses the
    line or shore it ends on (the overshoot is dropped)."""
    def out(a, b):
        dx, dy = a[0] - b[0], a[1] - b[1]
        d = math.hypot(dx, dy) or 1.0
        return (a[0] + dx / d * by, a[1] + dy / d * by)
    return [out(pts[0], pts[1])] + pts + [out(pts[-1], pts[-2])]


def assign(faces, labels, reach, what):
    """The owner of each face: its label, else the neighbour it shares the
    longest border with, else the nearest owned face within reach."""
    owner = [None] * len(faces)
    tree = shapely.STRtree(faces)
    for name, (x, y) in labels:
        hits = [i for i in tree.query(Point(x, y)) if faces[i].contains(Point(x, y))]
        if not hits:
            fail(f"the {what} label `{name}` at {x:.0f},{y:.0f} is in no {what}")
        i = hits[0]
        if owner[i] is not None and owner[i] != name:
            fail(f"`{name}` and `{owner[i]}` label one {what} piece (at {x:.0f},{y:.0f}): a border is missing")
        owner[i] = name
    # Pieces cut off by a line join the neighbour they share most border with.
    changed = True
    while changed:
        changed = False
        for i in [i for i in range(len(faces)) if owner[i] is None]:
            best, best_len = None, 0.5
            for j in tree.query(faces[i], predicate="intersects"):
                if owner[j] is None or j == i:
                    continue
                ln = faces[i].boundary.intersection(faces[j].boundary).length
                if ln > best_len:
                    best, best_len = owner[j], ln
            if best is not None:
                owner[i] = best
                changed = True
    # Islands: the nearest owned piece within reach, in rounds (an island
    # chain is reached one island at a time).
    while True:
        owned = [j for j in range(len(faces)) if owner[j] is not None and not owner[j].startswith("-")]
        todo = [i for i in range(len(faces)) if owner[i] is None]
        if not todo or not owned:
            break
        otree = shapely.STRtree([faces[j] for j in owned])
        idx, dist = otree.query_nearest([faces[i] for i in todo], max_distance=reach, return_distance=True)
        done = {}
        for (k, o), d in zip(idx.T, dist):
            i = todo[k]
            if i not in done or d < done[i][0]:
                done[i] = (d, owner[owned[o]])
        if not done:
            break
        for i, (_, o) in done.items():
            owner[i] = o
    return [o if o is not None else "-" for o in owner]


# --------------------------------------------------------------- places

UNIT_MARGIN = 10.0  # a unit's point this far inside its province (clicks)
CENTRE_R = 6.0  # a centre marker's radius and margin
OFFSHORE_REACH = 20.0  # how far an `offshore` name may lie from its island
ACROSS_REACH = 15.0  # how far apart two `across` neighbours may lie, unless the line says


def unit_box(xy):
    """The room a unit's icon takes (a fleet, the widest, with its outline)."""
    x, y = xy
    return box(x - 15, y - 14, x + 15, y + 11)


def inner(pt, shape):
    """The part of the province holding the point, or its largest."""
    parts = [g for g in getattr(shape, "geoms", [shape])]
    for g in parts:
        if g.contains(Point(pt)):
            return g
    return max(parts, key=lambda g: g.area)


def nudge(pt, shape, margin):
    """The point, moved towards the middle of its province until it lies
    `margin` inside it (or as far inside as the province allows)."""
    part = inner(pt, shape)
    goal = shapely.ops.polylabel(part, tolerance=0.5)
    x, y = pt
    best, best_d = (x, y), -1e9
    for _ in range(200):
        P = Point(x, y)
        d = part.boundary.distance(P) * (1 if part.contains(P) else -1)
        if d > best_d:
            best, best_d = (x, y), d
        if d >= margin:
            return (x, y)
        dx, dy = goal.x - x, goal.y - y
        n = math.hypot(dx, dy)
        if n < 0.5:
            break
        x, y = x + dx / n * 0.5, y + dy / n * 0.5
    return best


def place_centre(city, shape, boxes):
    """The city's point, moved inside its province and off the units."""
    c = nudge(city, shape, CENTRE_R + 0.5)
    free = lambda xy: all(b.distance(Point(xy)) >= CENTRE_R + 1 for b in boxes)
    if free(c):
        return c
    part = inner(c, shape)
    for r in range(4, 60, 3):
        for k in range(16):
            a = k * math.pi / 8
            q = (c[0] + r * math.cos(a), c[1] + r * math.sin(a))
            if free(q) and part.contains(Point(q)) and part.boundary.distance(Point(q)) >= CENTRE_R + 0.5:
                return q
    return c


def name_box(abbr, xy):
    """The room a province's name takes."""
    half = (7.5 * len(abbr) + 4) / 2
    return box(xy[0] - half, xy[1] - 6, xy[0] + half, xy[1] + 6)


def place_name(abbr, unit, shape, taken):
    """A spot for the name near its unit: inside the province, clear of
    units and centres; below the unit when it fits."""
    w, h = 7.5 * len(abbr) + 4, 12
    room = shape.buffer(-2)
    tries = [(0, 24), (0, -23), (32, 0), (-32, 0), (0, 31), (0, -30), (28, 20), (-28, 20), (28, -19), (-28, -19),
             (0, 40), (0, -39), (42, 0), (-42, 0), (36, 32), (-36, 32), (36, -31), (-36, -31)]
    best, best_score = (unit[0], unit[1] + 24), -1e9
    for dx, dy in tries:
        x, y = unit[0] + dx, unit[1] + dy
        b = box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        inside = b.intersection(room).area / b.area
        clash = sum(b.intersection(t).area for t in taken) / b.area
        score = inside * 10 - clash * 20 - math.hypot(dx, dy) / 40
        if score > best_score:
            best, best_score = (x, y), score
    return best


# --------------------------------------------------------------- output

def rings_of(geom):
    """Whole-number rings of a (multi)polygon: exteriors and holes."""
    out = []
    for p in getattr(geom, "geoms", [geom]):
        if p.geom_type != "Polygon" or p.is_empty:
            continue
        for r in [p.exterior, *p.interiors]:
            pts = []
            for x, y in r.coords[:-1]:
                q = (round(x), round(y))
                if not pts or pts[-1] != q:
                    pts.append(q)
            while len(pts) > 1 and pts[0] == pts[-1]:
                pts.pop()
            pts = drop_straight(pts)
            if len(pts) >= 3 and abs(shoelace(pts)) >= 1.0:
                out.append(pts)
    return out


def drop_straight(pts):
    """Drops points that lie on the straight line between their neighbours."""
    changed = True
    while changed and len(pts) > 3:
        changed = False
        keep = []
        n = len(pts)
        for i in range(n):
            a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
            cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1])
            if cross == 0 and dot > 0:
                changed = True
                continue
            keep.append(b)
        if len(keep) < 3:
            break
        pts = keep
    return pts


def shoelace(pts):
    return sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts))) / 2


def path(rings):
    return " ".join("M" + " ".join(f"{x},{y}" for x, y in r) + " Z" for r in rings)


def main():
    global DEBUG, countries
    import countries
    if len(sys.argv) == 6:
        DEBUG = sys.argv.pop()
    if len(sys.argv) != 5:
        fail("usage: natural_earth.py VARIANT.geo VARIANT.variant land-10m.json OUT.shapes")
    geo = Geo(sys.argv[1])
    variant = Variant(sys.argv[2])
    if geo.country_data:
        proj, land, shapes = countries.build(geo, variant, sys.argv[3], DEBUG)
    else:
        proj, land, shapes = build(geo, variant, sys.argv[3])
    W, H = geo.canvas
    problems = []
    for p in variant.terrain:
        if p not in shapes:
            problems.append(f"{p} has no shape")
    # Neighbours as the picture has them.
    provs = [p for p in variant.terrain if p in shapes and variant.terrain[p] != "impassable"]
    touching = set()
    for i, a in enumerate(provs):
        for b in provs[i + 1:]:
            if shapes[a].distance(shapes[b]) < 0.01:
                shared = shapes[a].boundary.intersection(shapes[b].boundary).length
                if shared >= 1.0:
                    touching.add((a, b))
    for i, a in enumerate(provs):
        for b in provs[i + 1:]:
            want = b in variant.adj[a]
            have = (a, b) in touching
            reach = geo.across.get(frozenset((a, b)))
            if reach is not None:
                if not want:
                    problems.append(f"`across {a} {b}`: they are no neighbours")
                elif have:
                    problems.append(f"`across {a} {b}`: their shapes meet, the line is not needed")
                elif shapes[a].distance(shapes[b]) > reach:
                    problems.append(f"`across {a} {b}`: {shapes[a].distance(shapes[b]):.0f} units apart, more than {reach:.0f}")
                continue
            if want and not have:
                problems.append(f"{a}–{b} are neighbours but their shapes do not meet")
            if have and not want:
                problems.append(f"{a}–{b} meet on the map but are no neighbours")
    # Points.
    points = {}
    for key, ll in geo.units.items():
        points[key] = proj(*ll)
    for p in variant.terrain:
        for c in variant.coasts.get(p, []):
            if f"{p}/{c}" not in geo.units:
                problems.append(f"no `unit {p}/{c} lon,lat`")
    names, centres = {}, {}
    for key in points:
        p = key.split("/")[0]
        if p in shapes:
            points[key] = nudge(points[key], shapes[p], UNIT_MARGIN)
    boxes = [unit_box(xy) for xy in points.values()]
    for p in variant.terrain:
        if p not in points or p not in shapes or p not in variant.centres:
            continue
        city = proj(*geo.centres[p]) if p in geo.centres else (points[p][0] + 24, points[p][1] - 12)
        centres[p] = place_centre(city, shapes[p], boxes)
    marks = [Point(xy).buffer(CENTRE_R + 1) for xy in centres.values()]
    # The names given first, so that the names placed keep off them too.
    for p in variant.terrain:
        if p in points and p in shapes and p in geo.names:
            names[p] = proj(*geo.names[p])
    written = [name_box(p, xy) for p, xy in names.items()]
    for p in variant.terrain:
        if p in points and p in shapes and p not in names:
            names[p] = place_name(p, points[p], shapes[p], boxes + marks + written)
            if geo.country_data:
                names[p] = countries.clear_name(p, names[p], points, shapes[p], list(centres.values()), written)
            written.append(name_box(p, names[p]))
    names = {p: names[p] for p in variant.terrain if p in names}
    margin = {"unit": UNIT_MARGIN - 0.5, "name": 3.0, "centre": CENTRE_R}
    for kind, table in (("unit", points), ("name", names), ("centre", centres)):
        for key, (x, y) in table.items():
            p = key.split("/")[0]
            if p not in shapes:
                continue
            sh = shapes[p]
            pt = Point(x, y)
            if kind == "name" and p in geo.offshore:
                if sh.distance(pt) > OFFSHORE_REACH:
                    problems.append(f"the offshore name of {p} is {sh.distance(pt):.0f} units from {p}")
                continue
            if not sh.contains(pt):
                problems.append(f"the {kind} point of {key} ({x:.0f},{y:.0f}) is outside {p}")
            elif sh.boundary.distance(pt) < margin[kind]:
                problems.append(f"the {kind} point of {key} is {sh.boundary.distance(pt):.1f} from its border")
    for p, (x, y) in names.items():
        half = (7.5 * len(p) + 4) / 2
        for key, (ux, uy) in points.items():
            if abs(x - ux) < half + 14 and abs(y - uy) < 6 + 11:
                problems.append(f"the name of {p} lies under the unit of {key}")
    named = list(names.items())
    for i, (p, xy) in enumerate(named):
        for q, xy2 in named[i + 1:]:
            if name_box(p, xy).intersects(name_box(q, xy2)):
                problems.append(f"the names of {p} and {q} overlap")
    for p, (x, y) in names.items():
        half = (7.5 * len(p) + 4) / 2
        for key, (cx, cy) in centres.items():
            if box(x - half, y - 6, x + half, y + 6).distance(Point(cx, cy)) < CENTRE_R - 1:
                problems.append(f"the name of {p} lies over the centre of {key}")
    for key in points:
        if "/" in key:
            p = key.split("/")[0]
            seas = sorted(
                (shapes[s].distance(Point(points[key])), s)
                for s in variant.adj[p]
                if variant.terrain.get(s) == "sea" and s in shapes
            )
            if seas and seas[0][1] not in variant.coast_adj[key]:
                problems.append(f"{key} lies nearest to {seas[0][1]}, not a sea of that coast")
    for msg in problems:
        print("problem:", msg, file=sys.stderr)

    out = []
    out.append(f"# Generated by scripts/natural-earth-maps.sh from {sys.argv[1]} and Natural Earth's")
    if geo.country_data:
        out.append(f"# admin-0 countries ({geo.country_data}; public domain; variants/natural-earth.md). Do not edit by hand.")
    else:
        out.append("# 1:10m land (public domain; variants/natural-earth.md). Do not edit by hand.")
    out.append(f"canvas {W} {H}")
    order = list(variant.terrain)
    for p in order:
        if p in shapes:
            rings = rings_of(shapes[p])
            out.append(f"province {p} {path(rings)}")
    neutral = unary_union([g for k, g in shapes.items() if k.startswith("-") and k != "-"] + [shapes.get("-", Polygon())])
    neutral = neutral.intersection(land)
    for g in getattr(neutral, "geoms", [neutral]):
        if g.geom_type == "Polygon":
            rings = rings_of(g)
            if rings:
                out.append(f"land {path(rings)}")
    for key, (x, y) in points.items():
        out.append(f"unit {key} {round(x)},{round(y)}")
    for key, (x, y) in names.items():
        out.append(f"name {key} {round(x)},{round(y)}")
    for key, (x, y) in centres.items():
        out.append(f"centre {key} {round(x)},{round(y)}")
    open(sys.argv[4], "w").write("\n".join(out) + "\n")
    print(f"{sys.argv[4]}: {len(problems)} problems", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

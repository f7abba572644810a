"""Provinces made of whole countries: a map whose `.geo` file has a
`country-data` line (World). Called by natural_earth.py in place of its
line-cutting `build`; the checks and the output are the same.

How a map is made:
1. Natural Earth's admin-0 countries (`country-data`, a world-atlas
   TopoJSON file beside the land) are projected and clipped to the canvas;
   a map centred on the `equirect` meridian wraps, so a country crossing
   the seam is drawn on both edges. The countries are simplified together
   (shared borders stay shared); islands under `min-island` are dropped.
2. A `country ABBR NAME...` line gives the named countries to ABBR. A
   country that several provinces name is shared out by nearest point:
   each part goes to the province whose `unit` or `seed` point is nearest
   (a Voronoi diagram of those points, wrapping round the seam). A
   country no line names goes to the nearest land province the same way.
   The water is shared out among the seas by nearest `unit` or `seed`.
3. A piece of a province cut off from the piece its unit stands in joins
   the neighbour it shares most border with; an island keeps its
   province; a piece of sea that touches no other sea is a lake of no sea.
   `neutral`, `water` and `island` lines label the piece at their point.
"""

import json
import os
from collections import defaultdict

import shapely
from shapely.affinity import translate
from shapely.geometry import MultiPoint, Point, Polygon, box
from shapely.ops import polygonize, unary_union

import natural_earth as ne


def decode_countries(path):
    """Each country's polygons, as lists of rings of (lon, lat), by name."""
    t = json.load(open(path))
    arcs = ne.decode_arcs(t)

    def ring(ids):
        out = []
        for i in ids:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        # Longitudes kept continuous across the antimeridian; but a ring
        # round the pole (Antarctica's) stays as it is, from -180 to 180.
        kept = ne.continuous_longitudes(out)
        return out if abs(kept[-1][0] - kept[0][0]) > 180 else kept

    countries = {}
    for g in t["objects"]["countries"]["geometries"]:
        polys = []
        if g["type"] == "Polygon":
            polys.append([ring(r) for r in g["arcs"]])
        elif g["type"] == "MultiPolygon":
            polys.extend([ring(r) for r in p] for p in g["arcs"])
        countries[g["properties"]["name"]] = polys
    return countries


def parts(geom):
    return [g for g in getattr(geom, "geoms", [geom]) if g.geom_type == "Polygon" and not g.is_empty]


def debug_png(path, W, H, shapes, sea, labels):
    """A picture of the provinces, seas first, holes left open (needs Pillow)."""
    import random

    from PIL import Image, ImageDraw

    rnd = random.Random(1)
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for p in sorted(shapes, key=lambda p: p not in sea):
        base = (100, 150, 220) if p in sea else (200, 180, 120)
        col = tuple(min(255, max(0, c + rnd.randint(-60, 60))) for c in base)
        for g in parts(shapes[p]):
            d.polygon(list(g.exterior.coords), fill=col, outline=(0, 0, 0))
            for h in g.interiors:
                d.polygon(list(h.coords), fill=(255, 255, 255), outline=(0, 0, 0))
    for p, (x, y) in labels.items():
        d.text((x, y), p, fill=(0, 0, 0))
    img.save(path)


def clear_name(abbr, xy, units, shape, centres, written):
    """The name's point, moved where the checks want it (inside its province,
    clear of every unit, centre marker and name written before) when the
    usual spot beside the unit is not: the nearest such point, the whole
    text inside if it can be."""
    half = (7.5 * len(abbr) + 4) / 2
    room = shape.buffer(-3.5)

    def clear(x, y):
        if any(abs(x - ux) < half + 15 and abs(y - uy) < 18 for ux, uy in units.values()):
            return False
        text = box(x - half, y - 6, x + half, y + 6)
        if any(text.intersects(w) for w in written):
            return False
        return all(text.distance(Point(c)) >= ne.CENTRE_R for c in centres)

    if room.contains(Point(xy)) and clear(*xy):
        return xy
    ux, uy = units[abbr]
    best, best_score = xy, None
    for dx in range(-90, 91, 2):
        for dy in range(-60, 61, 2):
            x, y = ux + dx, uy + dy
            if not room.contains(Point(x, y)) or not clear(x, y):
                continue
            whole = room.contains(box(x - half, y - 6, x + half, y + 6))
            score = (dx * dx + dy * dy) ** 0.5 + (0 if whole else 60)
            if best_score is None or score < best_score:
                best, best_score = (x, y), score
    return best


def wrapped_component(ps, main, W):
    """The parts connected to `main`, directly or across the seam (a part
    on the right edge meets one on the left edge)."""
    joined, todo = [main], [main]
    while todo:
        g = todo.pop()
        near = [g, translate(g, W), translate(g, -W)]
        for h in ps:
            if not any(h is j for j in joined) and min(n.distance(h) for n in near) < 0.01:
                joined.append(h)
                todo.append(h)
    return joined


def build(geo, variant, land_json, debug=None):
    if geo.projection_kind != "equirect":
        ne.fail(f"{geo.path}: a map of countries needs `projection equirect LON0`")
    if geo.land_lines or geo.sea_lines:
        ne.fail(f"{geo.path}: `land` and `sea` lines are not read on a map of countries (use `seed`)")
    proj = ne.Projection(geo)
    W, H = geo.canvas
    frame = box(0, 0, W, H)
    lon0 = proj.lon0
    turn = proj(lon0 + 180, 0)[0] - proj(lon0 - 180, 0)[0]  # canvas units round the world
    window = box(lon0 - 180, -90, lon0 + 180, 90)

    data = decode_countries(os.path.join(os.path.dirname(land_json), geo.country_data))
    for name in geo.countries:
        if name not in data:
            ne.fail(f"{geo.path}: no country `{name}` in {geo.country_data}")
    # A `bridge` is added to the country it overlaps most (Antarctica's
    # ice shelves and the cap round the pole, which the data leave out).
    bridges = defaultdict(list)
    for b in geo.bridges:
        B = Polygon(b)
        best = max(data, key=lambda n: sum(Polygon(p[0]).buffer(0).intersection(B).area for p in data[n] if len(p[0]) > 2))
        bridges[best].append([b])
    # A `cut` is taken from every country (a strait widened, so that two
    # provinces on its shores do not touch once rounded).
    cuts = unary_union([Polygon([proj(*c) for c in cut]) for cut in geo.cuts]) if geo.cuts else None
    names, geoms = [], []
    for name, polys in data.items():
        pieces = []
        for p in polys + bridges[name]:
            P = Polygon(p[0], p[1:])
            if not P.is_valid:
                P = shapely.make_valid(P)
            for shift in (-360, 0, 360):
                for Q in parts(translate(P, shift).intersection(window)):
                    pieces.append(Polygon([proj(*c) for c in Q.exterior.coords], [[proj(*c) for c in h.coords] for h in Q.interiors]))
        G = unary_union(pieces).intersection(frame) if pieces else Polygon()
        if cuts and not G.is_empty:
            G = G.difference(cuts)
        if not G.is_empty:
            names.append(name)
            geoms.append(G)
    # Simplified together, so that neighbours keep one border.
    geoms = list(shapely.coverage_simplify(geoms, geo.tolerance))
    kept_names, kept = [], []
    for name, G in zip(names, geoms):
        G = unary_union([g for g in parts(shapely.make_valid(G)) if g.area >= geo.min_island])
        if not G.is_empty:
            kept_names.append(name)
            kept.append(G)
    names, geoms = kept_names, kept
    land = unary_union(geoms)

    # Points that pull each province's border: its unit and its seeds.
    seeds = defaultdict(list)
    for p in variant.terrain:
        if p not in geo.units:
            ne.fail(f"{geo.path}: no `unit {p} lon,lat`")
        for ll in [geo.units[p]] + geo.seeds.get(p, []):
            x, y = proj(*ll)
            seeds[p] += [(x - turn, y), (x, y), (x + turn, y)]
    for p in geo.seeds:
        if p not in variant.terrain:
            ne.fail(f"{geo.path}: `seed {p}`: no such province")
    sea_provs = sorted(p for p, t in variant.terrain.items() if t == "sea")
    land_provs = sorted(p for p, t in variant.terrain.items() if t != "sea")
    for c, owners in geo.countries.items():
        for p in owners:
            if variant.terrain.get(p, "sea") == "sea":
                ne.fail(f"{geo.path}: `country {p} {c}`: {p} is no land province")
    def wrapped(lonlats):
        out = []
        for ll in lonlats:
            x, y = proj(*ll)
            out += [(x - turn, y), (x, y), (x + turn, y)]
        return out

    # Whose points share out what: the seas, the land of no `country`
    # line, and each country several provinces name (a `part` line's
    # points count only in its country, and there in place of the
    # province's own).
    groups = {tuple(sea_provs): [(xy, p) for p in sea_provs for xy in seeds[p]]}
    groups[tuple(land_provs)] = [(xy, p) for p in land_provs for xy in seeds[p]]
    for c, owners in geo.countries.items():
        if len(set(owners)) > 1:
            groups[c] = [
                (xy, p)
                for p in sorted(set(owners))
                for xy in (wrapped(geo.parts[(c, p)]) if (c, p) in geo.parts else seeds[p])
            ]
    nearest = {}
    edges = []
    for g, pts in groups.items():
        tree = shapely.STRtree([Point(xy) for xy, _ in pts])
        nearest[g] = (tree, [p for _, p in pts])
        cells = shapely.voronoi_polygons(MultiPoint([xy for xy, _ in pts]), extend_to=frame.buffer(turn))
        edges.append(unary_union([c.boundary for c in cells.geoms]).intersection(frame))

    def owner(group, pt):
        tree, who = nearest[group]
        return who[tree.nearest(pt)]

    noded = unary_union([G.boundary for G in geoms] + [frame.boundary] + edges)
    faces = list(polygonize(noded))
    ctree = shapely.STRtree(geoms)
    by = defaultdict(list)
    for f in faces:
        if f.area < 0.05 * f.length:
            continue  # a sliver between a coast and the canvas's edge
        rp = f.point_on_surface()
        hit = [i for i in ctree.query(rp, predicate="intersects")]
        if hit:
            c = names[hit[0]]
            owners = sorted(set(geo.countries.get(c, [])))
            by[owners[0] if len(owners) == 1 else owner(c if owners else tuple(land_provs), rp)].append(f)
        else:
            by[owner(tuple(sea_provs), rp)].append(f)
    shapes = {p: unary_union(fs) for p, fs in by.items()}

    # Labelled pieces: the piece of land (or water) at the point changes hands.
    sea = set(sea_provs)

    def relabel(name, lonlat, water):
        pt = Point(proj(*lonlat))
        if not water:
            # The whole island, whichever provinces the points shared it out to.
            island = [g for g in parts(land) if g.buffer(1e-6).contains(pt)]
            if island:
                for p, sh in list(shapes.items()):
                    if p not in sea and not p.startswith("-") and sh.intersection(island[0]).area > 0:
                        shapes[p] = sh.difference(island[0])
                shapes[name] = unary_union([shapes.get(name, Polygon()), island[0]])
                return
        for p, sh in list(shapes.items()):
            if p.startswith("-") or (p in sea) != water:
                continue
            for g in parts(sh):
                if g.buffer(1e-6).contains(pt):
                    shapes[p] = sh.difference(g)
                    shapes[name] = unary_union([shapes.get(name, Polygon()), g])
                    return
        ne.fail(f"{geo.path}: no {'water' if water else 'land'} at {lonlat[0]},{lonlat[1]} for `{name}`")

    for n, lon, lat in geo.neutral:
        relabel("-" + n, (lon, lat), False)
    for n, lon, lat in geo.water:
        relabel("-" + n, (lon, lat), True)
    for p, lon, lat in geo.islands:
        relabel(p, (lon, lat), False)

    # Cut-off pieces join the neighbour they share most border with.
    for _ in range(6):
        changed = False
        for p in sorted(shapes):
            if p.startswith("-"):
                continue
            home = Point(proj(*geo.units[p]))
            ps = parts(shapes[p])
            main = min(ps, key=lambda g: g.distance(home), default=None)
            joined = wrapped_component(ps, main, W)
            for g in ps:
                if any(g is h for h in joined):
                    continue
                best, best_len = None, 0.5
                for q, sh in shapes.items():
                    if q == p or q.startswith("-") or (q in sea) != (p in sea) or sh.distance(g) > 1e-6:
                        continue
                    ln = g.boundary.intersection(sh.boundary).length
                    if ln > best_len:
                        best, best_len = q, ln
                if best is None and p not in sea:
                    continue  # an island of the province
                best = best or "-lake"
                shapes[p] = shapes[p].difference(g)
                shapes[best] = unary_union([shapes.get(best, Polygon()), g])
                changed = True
        if not changed:
            break
    # Slivers left by the differences above are no pieces.
    shapes = {p: unary_union([g for g in parts(sh) if g.area > 1e-3]) for p, sh in shapes.items()}
    shapes = {p: sh for p, sh in shapes.items() if not sh.is_empty}
    if debug:
        debug_png(debug, W, H, shapes, sea, {p: proj(*geo.units[p]) for p in variant.terrain})
    return proj, land, shapes

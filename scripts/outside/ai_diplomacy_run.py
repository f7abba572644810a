"""Runs GoodStartLabs/AI_Diplomacy's game loop (`lm_game.py`) with a
scripted stand-in for its language model, on the engine its sources
import. Called by scripts/outside-code.sh from inside a checkout:

    python ai_diplomacy_run.py RUN_DIR MAX_YEAR

The checkout's code runs unchanged except for the lines that import
`Game` (which outside-code.sh rewrites to `from dip import Game` for the
dip run). The stand-in replaces `ai_diplomacy.clients.load_model_client`:
it answers every prompt as a model would, from the prompt's text alone.
To an order prompt it answers with orders taken from the possible orders
the prompt lists (one per unit, chosen by a hash of the prompt's power,
phase and candidates, so that both engines get the same choices when
they list the same orders); to every other prompt (goals, diaries,
negotiation) with a JSON object holding the keys those parsers read.

At the end it prints one JSON line: the phases played, the order prompts
answered and how many of them AI_Diplomacy logged as a success, and the
final centres, for scripts/outside-code.sh to compare between engines.
"""
import asyncio
import csv
import json
import os
import re
import sys
import zlib

sys.path.insert(0, os.getcwd())

import ai_diplomacy.clients as clients  # noqa: E402
import ai_diplomacy.game_logic as game_logic  # noqa: E402

# A line of the prompt's possible orders that is an order.
ORDER = re.compile(r"(?:[AF] [A-Z]{3}(?:/[A-Z]{2})? (?:H|D|B|[-R] [A-Z]{3}(?:/[A-Z]{2})?(?: VIA)?"
                   r"|[SC] [AF] [A-Z]{3}(?:/[A-Z]{2})?(?: - [A-Z]{3}(?:/[A-Z]{2})?)?)|WAIVE)")

ANSWER = {
    "goals": ["Hold the home centres", "Take one neutral centre"],
    "relationships": {p: "Neutral" for p in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")},
    "updated_goals": ["Hold the home centres"],
    "updated_relationships": {},
    "negotiation_summary": "No agreements.",
    "intent": "Hold.",
    "reasoning": "Scripted stand-in.",
    "diary_entry": "Scripted stand-in.",
    "summary": "Scripted stand-in.",
}


def pick_orders(prompt):
    """One order per unit from the possible orders the prompt lists."""
    power = re.search(r"\b(AUSTRIA|ENGLAND|FRANCE|GERMANY|ITALY|RUSSIA|TURKEY)\b", prompt)
    phase = re.search(r"\b([SFW]\d{4}[MRA])\b", prompt)
    listed = prompt
    if "Possible Orders For" in prompt:
        listed = prompt[prompt.index("Possible Orders For"):]
        listed = listed[: listed.find("End Possible Orders")]
    by_unit = {}
    for line in listed.splitlines():
        order = line.strip()
        if not ORDER.fullmatch(order):
            continue
        unit = "WAIVE" if order == "WAIVE" else " ".join(order.split()[:2])
        by_unit.setdefault(unit, [])
        if order not in by_unit[unit]:
            by_unit[unit].append(order)
    seed = "%s %s" % (power.group(1) if power else "", phase.group(1) if phase else "")
    chosen = []
    for unit in sorted(by_unit):
        options = sorted(by_unit[unit])
        key = zlib.crc32(("%s|%s|%s" % (seed, unit, "|".join(options))).encode())
        chosen.append(options[key % len(options)])
    return chosen


class ScriptedClient(clients.BaseModelClient):
    """AI_Diplomacy's model client with scripted answers."""

    prompts = 0

    async def generate_response(self, prompt, temperature=0.0, inject_random_seed=True):
        ScriptedClient.prompts += 1
        if '"orders"' in prompt and "PARSABLE OUTPUT" in prompt:
            return 'Reasoning:\nScripted.\n\nPARSABLE OUTPUT:\n{"orders": %s}' % json.dumps(pick_orders(prompt))
        return json.dumps(ANSWER)


def load_model_client(model_id, prompts_dir=None):
    return ScriptedClient(model_id, prompts_dir=prompts_dir)


clients.load_model_client = load_model_client
game_logic.load_model_client = load_model_client


# `--planning_phase` is left out: its module misses an import
# (`gather_possible_orders` in ai_diplomacy/planning.py) on every engine.
def main():
    run_dir, max_year = sys.argv[1], sys.argv[2]
    sys.argv = ["lm_game.py", "--run_dir", run_dir, "--max_year", max_year, "--num_negotiation_rounds", "1",
                "--models", ",".join(["scripted"] * 7)]
    import lm_game

    asyncio.run(lm_game.main())
    with open(os.path.join(run_dir, "llm_responses.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("response_type") == "order_generation"]
    with open(os.path.join(run_dir, "lmvsgame.json")) as f:
        saved = json.load(f)
    last = saved["phases"][-1]["state"]
    print(json.dumps({
        "engine": lm_game.Game.__module__.split(".")[0],
        "phases": [p["name"] for p in saved["phases"]],
        "order_prompts": len(rows),
        "order_successes": sum(1 for r in rows if r.get("success") == "Success"),
        "failures": sorted({r.get("success") for r in rows if r.get("success") != "Success"}),
        "centers": {p: sorted(c) for p, c in last["centers"].items()},
        "units": {p: sorted(u) for p, u in last["units"].items()},
    }, sort_keys=True))


if __name__ == "__main__":
    main()

"""Typical agent code, checked by mypy and pyright against dip's stubs
(scripts/python-tests.sh): MILA's README loop and what agents read."""
import random
from typing import Dict, List, Tuple

import dip


def play(seed: int) -> List[str]:
    rng = random.Random(seed)
    game = dip.Game(map_name='standard')
    while not game.is_game_done:
        possible_orders = game.get_all_possible_orders()
        for power_name, power in game.powers.items():
            orders: List[str] = [rng.choice(possible_orders[loc])
                                 for loc in game.get_orderable_locations(power_name) if possible_orders[loc]]
            game.set_orders(power_name, orders)
            units: List[str] = power.units
            centers: List[str] = game.get_centers(power_name)
            assert len(units) >= 0 and len(centers) >= 0
        paris: List[str] = game.get_all_possible_orders('PAR')
        everyone: Dict[str, List[str]] = game.get_units()
        mine: List[str] = game.get_orders('FRANCE')
        assert paris is not None and everyone and mine is not None
        game.process()
    near: List[str] = game.map.loc_coasts.get('STP', ['STP'])
    if game.map.abuts('F', 'BOT', '-', 'STP/SC') and game.map.area_type('STP') == 'COAST':
        near.append(game.map.norm('St Petersburg'))
    # An order as a person writes it, in MILA's short form.
    words: List[str] = game.map.rearrange(game.map.compact('France: Army Paris moves to Burgundy'))
    kinds: List[Tuple[str, int]] = game.map.vet(words, strict=1)
    assert [kind for _, kind in kinds] and game.map.aliases['BURG'] == 'BUR'
    game.add_message(dip.Message(sender='FRANCE', recipient='GLOBAL', message='bye',
                                 phase=game.get_current_phase()))
    return game.outcome + near

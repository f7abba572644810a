// The lobby: deadline countdowns, and the power list following the variant.
import { countdowns } from "/assets/map.js";

countdowns();
const variant = document.getElementById("variant");
const power = document.getElementById("power");
if (variant && power) {
  const follow = () => {
    for (const o of power.options) {
      if (o.dataset.variant) o.hidden = o.dataset.variant !== variant.value;
    }
    if (power.selectedOptions[0]?.hidden) power.value = "";
  };
  variant.addEventListener("change", follow);
  follow();
}

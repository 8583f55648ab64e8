"""Every card's special action, one family per module, registered in `engine.special.CARDS`.

Importing this package registers the cards and their move forms.
"""

from engine.moves import MoveForm
from engine.special import CARDS, Forms, register_moves

from . import intrigue, personal, pieces, punishment, scorings, secret  # noqa: F401

register_moves(
    Forms(
        planning=(
            MoveForm("do_special"),
            MoveForm("special_option", {"option": str}),
            MoveForm("special_region", {"region": str}),
            MoveForm("special_place", {"to": str}),
            MoveForm("move_caballero", {"colour": str, "from": str, "to": str}),
            MoveForm("target", {"player": str}),
            MoveForm("remove_caballero", {"colour": str, "region": str}),
            MoveForm("move_scoreboard", {"scoreboard": str, "to": str}),
            MoveForm("move_king", {"to": str}),
            MoveForm("move_grande", {"to": str}),
            MoveForm("return_power_card", {"card": int}),
        ),
        inputs=(
            MoveForm("return_caballero", {"from": str}),
            MoveForm("secret_pick", {"region": str}),
        ),
    )
)

__all__ = ["CARDS"]

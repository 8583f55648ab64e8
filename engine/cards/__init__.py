"""Every card's special action, one family per module, registered in `engine.special.CARDS`.

Importing this package registers the cards and their move forms.
"""

from engine.moves import PRIVATE, PUBLIC, UNTIL_REVEALED, MoveForm
from engine.special import CARDS
from engine.special_moves import Forms, register_moves

from . import intrigue, personal, pieces, punishment, scorings, secret  # noqa: F401

register_moves(
    Forms(
        planning=(
            MoveForm("do_special", secrecy=PUBLIC),
            MoveForm("special_option", {"option": str}, secrecy=PUBLIC),
            MoveForm("special_region", {"region": str}, secrecy=PUBLIC),
            MoveForm("special_place", {"to": str}, secrecy=PUBLIC),
            MoveForm("move_caballero", {"colour": str, "from": str, "to": str}, secrecy=PUBLIC),
            MoveForm("target", {"player": str}, secrecy=PUBLIC),
            MoveForm("remove_caballero", {"colour": str, "region": str}, secrecy=PUBLIC),
            MoveForm("move_scoreboard", {"scoreboard": str, "to": str}, secrecy=PUBLIC),
            MoveForm("move_king", {"to": str}, secrecy=PUBLIC),
            MoveForm("move_grande", {"to": str}, secrecy=PUBLIC),
            MoveForm("return_power_card", {"card": int}, secrecy=PRIVATE),
        ),
        inputs=(
            MoveForm("return_caballero", {"from": str}, secrecy=PUBLIC),
            MoveForm("secret_pick", {"region": str}, secrecy=UNTIL_REVEALED),
        ),
    )
)

__all__ = ["CARDS"]

"""The names of the game's things in the languages the project speaks: the places on the board,
the action cards and the game's terms, each once per language.

Pages and mails show these names; `engine.notation` reads them back, so a move may name a
region or a card in any of these languages (and a colour in the languages whose own words the
notation writes: see `engine.notation.WRITTEN`). The ids
(`old_castile`, `score_castillo`) are the names moves carry; a name here is only shown and read.

Where the names come from:

- English (`en`) is what pages and mails show today: the board's names, and each card's id
  as words (`Score five regions`; the King card `King`; the Castillo, a name, capitalised:
  `Score Castillo`).
- German (`de`): the regions are the German names the Hans im Glück rules use (Galicien,
  Altkastilien, Neukastilien, Katalonien, Sevilla, Granada, Valencia), with Baskenland and
  Aragonien, the standard German names. The cards' titles are the German ones printed on the
  cards (Intrigant, Veto, Autoritätsverfall, König erzürnt, Sonderwertung, Wertungstafel,
  Königlicher Ratgeber, Rauswurf, Grande, Machtkarten, Der Hof, Königskarte), and so are Hof,
  Provinz, Machtkarte and Wertungstafel among the terms.
- Italian (`it`): regions, card titles (Intrigo, Perdita di autorità, Il Ritorno del Re,
  Assegnazione di Punti, Segnapunti Mobile, Editto Reale, Espulsione, Il Grande, Carte Potere,
  La Corte, Il Re) and terms as the Italian rules give them.
- Russian (`ru`): regions (but Каталония) and terms as the Russian rules give them.
- French (`fr`): caballeros, Grande, cour, province, carte action, carte de pouvoir and
  décompte as the French rules give them; the regions are the usual French names.
- Spanish (`es`): the regions' own Spanish names.

Everything else is our translation: every card name in French, Spanish and Russian; in German
and Italian the cards the rules leave untitled (one caballero of each opponent, the two secret
returns) and the words after a colon, which tell apart cards that share a title (the books
call nine cards "Intrigant" and nine "Sonderwertung"), as the English names do; and the terms
a book does not name. The pieces keep the game's own names: Caballero, Castillo, Grande (in
Russian as its rules spell them: Кабальеро, Кастильо, Гранд). A number in a card's name is
never a word of its own (`vier`, `4er-Regionen`), as in English, so it never reads as a stack
number.

The scoreboards have no names of their own: a printed one is its region's, and the two mobile
ones are called by their values (`8/4/0`, `4/0/0`) in every language.
"""

from __future__ import annotations

from typing import NamedTuple

#: The languages, English first: the codes pages and mails will be translated into.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "it", "es", "ru")


class Names(NamedTuple):
    """One thing's name in each language (the fields in the order of `LANGUAGES`)."""

    en: str
    de: str
    fr: str
    it: str
    es: str
    ru: str

    def in_language(self, language: str) -> str:
        if language not in LANGUAGES:
            raise KeyError(f'"{language}" is not a language of the game ({", ".join(LANGUAGES)})')
        return self[LANGUAGES.index(language)]


# Every table below: id -> Names(en, de, fr, it, es, ru).

#: The places on the board: the nine regions in scoring order, then the Castillo.
PLACE_NAMES: dict[str, Names] = {
    "galicia": Names("Galicia", "Galicien", "Galice", "Galizia", "Galicia", "Галисия"),
    "basque_country": Names(
        "Basque Country", "Baskenland", "Pays basque", "Paesi Baschi", "País Vasco", "Страна Басков"
    ),
    "aragon": Names("Aragon", "Aragonien", "Aragon", "Aragona", "Aragón", "Арагон"),
    "catalonia": Names(
        "Catalonia", "Katalonien", "Catalogne", "Catalogna", "Cataluña", "Каталония"
    ),
    "old_castile": Names(
        "Old Castile",
        "Altkastilien",
        "Vieille-Castille",
        "Antica Castiglia",
        "Castilla la Vieja",
        "Старая Кастилия",
    ),
    "new_castile": Names(
        "New Castile",
        "Neukastilien",
        "Nouvelle-Castille",
        "Nuova Castiglia",
        "Castilla la Nueva",
        "Новая Кастилия",
    ),
    "seville": Names("Seville", "Sevilla", "Séville", "Siviglia", "Sevilla", "Севилья"),
    "granada": Names("Granada", "Granada", "Grenade", "Granada", "Granada", "Гранада"),
    "valencia": Names("Valencia", "Valencia", "Valence", "Valencia", "Valencia", "Валенсия"),
    "castillo": Names("Castillo", "Castillo", "Castillo", "Castillo", "Castillo", "Кастильо"),
}

#: The action cards, by the ids of `engine.data.ACTION_STACKS`, stack by stack.
CARD_NAMES: dict[str, Names] = {
    # Stack 1
    "intrigue_own_region": Names(
        "Intrigue own region",
        "Intrigant: eigene Region",
        "Intrigue : une de vos régions",
        "Intrigo: una tua regione",
        "Intriga: una región tuya",
        "Интрига: своя область",
    ),
    "intrigue_court_two": Names(
        "Intrigue court two",
        "Intrigant: zwei vom Hof",
        "Intrigue : deux de la cour",
        "Intrigo: due dalla corte",
        "Intriga: dos de la corte",
        "Интрига: два со двора",
    ),
    "intrigue_court_two_or_own_region": Names(
        "Intrigue court two or own region",
        "Intrigant: zwei vom Hof oder eigene Region",
        "Intrigue : deux de la cour ou une de vos régions",
        "Intrigo: due dalla corte o una tua regione",
        "Intriga: dos de la corte o una región tuya",
        "Интрига: два со двора или своя область",
    ),
    "intrigue_five_from_region": Names(
        "Intrigue five from region",
        "Intrigant: fünf aus einer Region",
        "Intrigue : cinq d'une région",
        "Intrigo: cinque da una regione",
        "Intriga: cinco de una región",
        "Интрига: пять из области",
    ),
    "intrigue_three_foreign": Names(
        "Intrigue three foreign",
        "Intrigant: drei fremde",
        "Intrigue : trois adverses",
        "Intrigo: tre avversari",
        "Intriga: tres rivales",
        "Интрига: три чужих",
    ),
    "intrigue_three_any": Names(
        "Intrigue three any",
        "Intrigant: drei beliebige",
        "Intrigue : trois au choix",
        "Intrigo: tre qualsiasi",
        "Intriga: tres cualesquiera",
        "Интрига: три любых",
    ),
    "intrigue_two_own_two_foreign": Names(
        "Intrigue two own two foreign",
        "Intrigant: zwei eigene, zwei fremde",
        "Intrigue : deux à vous, deux adverses",
        "Intrigo: due tuoi e due avversari",
        "Intriga: dos tuyos y dos rivales",
        "Интрига: два своих и два чужих",
    ),
    "intrigue_four_own": Names(
        "Intrigue four own",
        "Intrigant: vier eigene",
        "Intrigue : quatre à vous",
        "Intrigo: quattro tuoi",
        "Intriga: cuatro tuyos",
        "Интрига: четыре своих",
    ),
    "intrigue_four_any": Names(
        "Intrigue four any",
        "Intrigant: vier beliebige",
        "Intrigue : quatre au choix",
        "Intrigo: quattro qualsiasi",
        "Intriga: cuatro cualesquiera",
        "Интрига: четыре любых",
    ),
    # Stack 2
    "veto": Names("Veto", "Veto", "Veto", "Veto", "Veto", "Вето"),
    "decay_all_court": Names(
        "Decay all court",
        "Autoritätsverfall: ganzer Hof",
        "Perte d'autorité : toute la cour",
        "Perdita di autorità: tutta la corte",
        "Pérdida de autoridad: toda la corte",
        "Упадок власти: весь двор",
    ),
    "decay_three_court": Names(
        "Decay three court",
        "Autoritätsverfall: drei vom Hof",
        "Perte d'autorité : trois de la cour",
        "Perdita di autorità: tre dalla corte",
        "Pérdida de autoridad: tres de la corte",
        "Упадок власти: три со двора",
    ),
    "king_rages": Names(
        "King rages",
        "König erzürnt",
        "Colère du roi",
        "Il Ritorno del Re",
        "Ira del rey",
        "Гнев Короля",
    ),
    "one_from_each_opponent": Names(
        "One from each opponent",
        "Einer von jedem Mitspieler",
        "Un de chaque adversaire",
        "Uno da ogni avversario",
        "Uno de cada rival",
        "По одному от каждого соперника",
    ),
    "secret_two_from_region": Names(
        "Secret two from region",
        "Geheim: zwei aus einer Region",
        "En secret : deux d'une région",
        "In segreto: due da una regione",
        "En secreto: dos de una región",
        "Тайно: два из области",
    ),
    "secret_all_from_region": Names(
        "Secret all from region",
        "Geheim: alle aus einer Region",
        "En secret : tous d'une région",
        "In segreto: tutti da una regione",
        "En secreto: todos de una región",
        "Тайно: все из области",
    ),
    "score_chosen_region": Names(
        "Score chosen region",
        "Sonderwertung: beliebige Region",
        "Décompte : une région au choix",
        "Assegnazione di Punti: una regione a scelta",
        "Puntuación: una región a elegir",
        "Подсчет: область на выбор",
    ),
    # Stack 3 (and score_chosen_region above)
    "score_four_regions": Names(
        "Score four regions",
        "Sonderwertung: 4er-Regionen",
        "Décompte : régions à quatre",
        "Assegnazione di Punti: regioni da quattro",
        "Puntuación: regiones de cuatro",
        "Подсчет: области по четыре",
    ),
    "score_five_regions": Names(
        "Score five regions",
        "Sonderwertung: 5er-Regionen",
        "Décompte : régions à cinq",
        "Assegnazione di Punti: regioni da cinque",
        "Puntuación: regiones de cinco",
        "Подсчет: области по пять",
    ),
    "score_six_seven_regions": Names(
        "Score six seven regions",
        "Sonderwertung: 6er- und 7er-Regionen",
        "Décompte : régions à six et sept",
        "Assegnazione di Punti: regioni da sei e sette",
        "Puntuación: regiones de seis y siete",
        "Подсчет: области по шесть и семь",
    ),
    "score_castillo": Names(
        "Score Castillo",
        "Sonderwertung: Castillo",
        "Décompte : Castillo",
        "Assegnazione di Punti: Castillo",
        "Puntuación: Castillo",
        "Подсчет: Кастильо",
    ),
    "score_first_places": Names(
        "Score first places",
        "Sonderwertung: erste Plätze",
        "Décompte : premières places",
        "Assegnazione di Punti: solo la maggioranza",
        "Puntuación: primeros puestos",
        "Подсчет: первые места",
    ),
    "score_most_caballeros": Names(
        "Score most caballeros",
        "Sonderwertung: meiste Caballeros",
        "Décompte : le plus de caballeros",
        "Assegnazione di Punti: più Caballeros",
        "Puntuación: más caballeros",
        "Подсчет: больше всего Кабальеро",
    ),
    "score_fewest_caballeros": Names(
        "Score fewest caballeros",
        "Sonderwertung: wenigste Caballeros",
        "Décompte : le moins de caballeros",
        "Assegnazione di Punti: meno Caballeros",
        "Puntuación: menos caballeros",
        "Подсчет: меньше всего Кабальеро",
    ),
    # Stack 4
    "mobile_scoreboard": Names(
        "Mobile scoreboard",
        "Wertungstafel",
        "Tableau de points mobile",
        "Segnapunti Mobile",
        "Marcador móvil",
        "Переносное табло",
    ),
    "royal_adviser": Names(
        "Royal adviser",
        "Königlicher Ratgeber",
        "Conseiller royal",
        "Editto Reale",
        "Consejero real",
        "Королевский советник",
    ),
    "eviction": Names("Eviction", "Rauswurf", "Expulsion", "Espulsione", "Expulsión", "Изгнание"),
    "grande": Names("Grande", "Grande", "Grande", "Il Grande", "Grande", "Гранд"),
    "power_card_return": Names(
        "Power card return",
        "Machtkarten",
        "Reprise d'une carte de pouvoir",
        "Carte Potere",
        "Recuperar carta de poder",
        "Возврат карты силы",
    ),
    "court_two": Names("Court two", "Der Hof", "La cour", "La Corte", "La corte", "Двор"),
    "secret_scoring": Names(
        "Secret scoring",
        "Sonderwertung: geheime Wahl",
        "Décompte secret",
        "Assegnazione di Punti: disco segreto",
        "Puntuación secreta",
        "Тайный подсчет",
    ),
    # Stack 5
    "king": Names("King", "Königskarte", "Le roi", "Il Re", "El rey", "Король"),
}

#: The colours of the seats, by the ids of `engine.data.COLOURS`, as the pages name them.
COLOUR_NAMES: dict[str, Names] = {
    "red": Names("red", "Rot", "rouge", "rosso", "rojo", "красный"),
    "yellow": Names("yellow", "Gelb", "jaune", "giallo", "amarillo", "жёлтый"),
    "green": Names("green", "Grün", "vert", "verde", "verde", "зелёный"),
    "blue": Names("blue", "Blau", "bleu", "blu", "azul", "синий"),
    "brown": Names("brown", "Braun", "marron", "marrone", "marrón", "коричневый"),
}

#: The game's terms, as running text writes them (a German noun capitalised, the Italian and
#: Russian rules' capital Re and Король kept).
TERM_NAMES: dict[str, Names] = {
    "caballero": Names(
        "caballero", "Caballero", "caballero", "Caballero", "caballero", "Кабальеро"
    ),
    "caballeros": Names(
        "caballeros", "Caballeros", "caballeros", "Caballeros", "caballeros", "Кабальеро"
    ),
    "grande": Names("grande", "Grande", "Grande", "Grande", "Grande", "Гранд"),
    "grandes": Names("grandes", "Granden", "Grandes", "Grandi", "Grandes", "Гранды"),
    "king": Names("king", "König", "roi", "Re", "rey", "Король"),
    "court": Names("court", "Hof", "cour", "corte", "corte", "двор"),
    "province": Names("province", "Provinz", "province", "province", "provincia", "провинции"),
    "castillo": Names("Castillo", "Castillo", "Castillo", "Castillo", "Castillo", "Кастильо"),
    "region": Names("region", "Region", "région", "regione", "región", "область"),
    "kings_region": Names(
        "king's region",
        "Königsregion",
        "région du roi",
        "regione del Re",
        "región del rey",
        "Королевская область",
    ),
    "home_region": Names(
        "home region",
        "Heimatregion",
        "région d'origine",
        "regione di provenienza",
        "región de origen",
        "родная область",
    ),
    "power_card": Names(
        "power card",
        "Machtkarte",
        "carte de pouvoir",
        "carta potere",
        "carta de poder",
        "карта силы",
    ),
    "action_card": Names(
        "action card",
        "Aktionskarte",
        "carte action",
        "carta azione",
        "carta de acción",
        "карта действия",
    ),
    "secret_disk": Names(
        "secret disk",
        "Geheimscheibe",
        "disque secret",
        "disco segreto",
        "disco secreto",
        "секретный диск",
    ),
    "scoreboard": Names(
        "scoreboard", "Wertungstafel", "tableau de points", "riquadro", "marcador", "табло"
    ),
    "mobile_scoreboard": Names(
        "mobile scoreboard",
        "bewegliche Wertungstafel",
        "tableau de points mobile",
        "segnapunti mobile",
        "marcador móvil",
        "переносное табло",
    ),
    "veto": Names("Veto", "Veto", "Veto", "Veto", "Veto", "Вето"),
    "kings_bonus": Names(
        "king's bonus",
        "Königsbonus",
        "bonus du roi",
        "bonus reale",
        "bonificación del rey",
        "Королевский бонус",
    ),
    "home_bonus": Names(
        "home bonus",
        "Heimatbonus",
        "bonus d'origine",
        "bonus della regione di provenienza",
        "bonificación de origen",
        "бонус за родную область",
    ),
    "general_scoring": Names(
        "general scoring",
        "Hauptwertung",
        "décompte",
        "assegnazione generale dei punti",
        "puntuación general",
        "общий подсчет очков",
    ),
}


def place_name(place: str, language: str = "en") -> str:
    """A region's or the Castillo's name: `place_name("old_castile", "de")` is Altkastilien."""
    return PLACE_NAMES[place].in_language(language)


def card_name(card: str, language: str = "en") -> str:
    """An action card's name: `card_name("eviction", "it")` is Espulsione."""
    return CARD_NAMES[card].in_language(language)


def colour_name(colour: str, language: str = "en") -> str:
    """A seat's colour: `colour_name("green", "ru")` is зелёный."""
    return COLOUR_NAMES[colour].in_language(language)


def term(key: str, language: str = "en") -> str:
    """A game term of `TERM_NAMES`: `term("court", "fr")` is cour."""
    return TERM_NAMES[key].in_language(language)


__all__ = [
    "CARD_NAMES",
    "COLOUR_NAMES",
    "LANGUAGES",
    "PLACE_NAMES",
    "TERM_NAMES",
    "Names",
    "card_name",
    "colour_name",
    "place_name",
    "term",
]

"""Everything is declared in pyproject.toml; this adds one build step: the message catalogs
(`pbem/translations/*/LC_MESSAGES/*.po`) are compiled to `.mo` files, which the wheel
carries beside them."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("pbem/translations").glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})

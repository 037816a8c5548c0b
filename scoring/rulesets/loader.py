"""Django finds each registered ruleset's templates in its folder (``<folder>/templates/``)."""

from django.template.loaders.filesystem import Loader as FilesystemLoader

from scoring.engine import all_rulesets


class Loader(FilesystemLoader):
    def get_dirs(self):
        return [ruleset.folder / "templates" for ruleset in all_rulesets()]

"""How the entry sheets draw their fields: Django's renderer, with the select written in Python, byte for byte the same.

Django's select makes two includes per option; tests/table/test_it_entry_widgets.py draws every entry
form both ways, and an option template other than Django's leaves the select to the templates."""

from django.forms.renderers import DjangoTemplates
from django.template import Context
from django.template.base import render_value_in_context
from django.template.defaultfilters import stringformat
from django.utils.safestring import SafeData, mark_safe

SELECT = "django/forms/widgets/select.html"
OPTION = "django/forms/widgets/select_option.html"
# What the renderer's templates are rendered in: autoescape on, the active language's formats.
_CONTEXT = Context()


def _text(value) -> str:
    """``{{ value }}``."""
    return render_value_in_context(value, _CONTEXT)


def _formatted(value) -> str:
    """``{{ value|stringformat:'s' }}`` (a safe value stays unescaped, as the filter keeps it)."""
    text = stringformat(value, "s")
    return _text(mark_safe(text) if isinstance(value, SafeData) else text)


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html."""
    return "".join(
        f" {_text(name)}" if value is True else f' {_text(name)}="{_formatted(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def select(widget: dict) -> str | None:
    """django/forms/widgets/select.html and its options, or None for an option of another template."""
    parts = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_text(group_name)}">')
        for option in options:
            if option["template_name"] != OPTION:
                return None
            label = _text(option["label"])
            parts.append(
                f'\n  <option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>{label}</option>\n'
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts).strip()  # as the renderer strips a template's output


class EntryRenderer(DjangoTemplates):
    """Django's default form renderer, drawing selects in Python."""

    def render(self, template_name, context, request=None):
        if template_name == SELECT and (html := select(context["widget"])) is not None:
            return html
        return super().render(template_name, context, request)


ENTRY_RENDERER = EntryRenderer()

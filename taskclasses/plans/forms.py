"""Forms of the task-class pages: they read the POSTed values; the services check the rules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from schedule.core.time_model import SectionTemplate
from schedule.exams.models import Exam
from schedule.messages import DAY_LABELS
from taskclasses.models import TaskClass

DAY_CHOICES = [(number, label) for number, label in enumerate(DAY_LABELS, start=1)]
# Which field shows a service error; codes not listed go to the top of the form.
ERROR_FIELDS = {
    "empty_name": "name", "name_too_long": "name", "invalid_strategy": "strategy",
    "window_reversed": "end_date", "window_outside_semester": "start_date",
    "invalid_excluded_pairs": "excluded_pairs", "all_pairs_excluded": "excluded_pairs",
    "invalid_excluded_days": "excluded_days", "all_days_excluded": "excluded_days",
    "invalid_section_budget": "section_budget",
    "spaced_needs_exam": "exam", "exam_before_window": "exam", "exam_after_window": "exam", "exam_not_found": "exam",
}
# Errors about the blocks of a new class: shown under the lines if some were written, else the number.
ITEM_ERRORS = {"empty_class", "invalid_item_count", "empty_item", "item_too_long", "too_many_items",
               "items_and_count"}

# A date input takes ISO dates whatever the page's language (Chinese formats would show as empty).
DATE_INPUT = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


def pair_choices(template: SectionTemplate) -> list[tuple[int, str]]:
    """Label each pair of sections with its times in the student's template, e.g. "1 · 08:00–09:40"."""
    times = template.to_hhmm()
    return [(pair, f"{pair} · {times[first - 1][0]}–{times[last - 1][1]}")
            for pair, (first, last) in enumerate(template.pairs(), start=1)]


class TaskClassForm(forms.Form):
    """The fields of a class, as edited on the detail page."""

    name = forms.CharField(label=_("Name"), max_length=100)
    strategy = forms.ChoiceField(label=_("Strategy"), choices=TaskClass.Strategy.choices,
                                 initial=TaskClass.Strategy.STEADY, widget=forms.RadioSelect)
    start_date = forms.DateField(label=_("First day"), widget=DATE_INPUT)
    end_date = forms.DateField(label=_("Last day"), widget=DATE_INPUT)
    excluded_pairs = forms.TypedMultipleChoiceField(label=_("Avoid these blocks"), coerce=int, required=False,
                                                    widget=forms.CheckboxSelectMultiple)
    excluded_days = forms.TypedMultipleChoiceField(label=_("Avoid these days"), coerce=int, required=False,
                                                   choices=DAY_CHOICES, widget=forms.CheckboxSelectMultiple)
    allow_filler = forms.BooleanField(label=_("May use filler courses"), required=False, initial=True)
    exam = forms.TypedChoiceField(label=_("Exam (for a spaced class)"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args: Any, template: SectionTemplate, exams: Iterable[Exam] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pairs = self.fields["excluded_pairs"]
        assert isinstance(pairs, forms.ChoiceField)
        pairs.choices = pair_choices(template)
        exam = self.fields["exam"]
        assert isinstance(exam, forms.ChoiceField)
        exam.choices = [("", _("No exam"))] + [(e.pk, f"{e.title} · {e.date.isoformat()}") for e in exams]

    def add_service_error(self, code: str, message: str) -> None:
        self.add_error(ERROR_FIELDS.get(code) if ERROR_FIELDS.get(code) in self.fields else None, message)

    def class_arguments(self) -> dict[str, Any]:
        """Return the cleaned fields as the services take them."""
        arguments = {name: self.cleaned_data[name] for name in
                     ("name", "strategy", "start_date", "end_date", "excluded_pairs", "excluded_days", "allow_filler")}
        return {**arguments, "exam_id": self.cleaned_data.get("exam")}

    @classmethod
    def initial_of(cls, task_class: TaskClass) -> dict[str, Any]:
        return {"name": task_class.name, "strategy": task_class.strategy, "start_date": task_class.start_date,
                "end_date": task_class.end_date, "excluded_pairs": task_class.excluded_pairs,
                "excluded_days": task_class.excluded_days, "allow_filler": task_class.allow_filler,
                "exam": task_class.exam_id}


class TaskClassCreateForm(TaskClassForm):
    """A new class: its fields plus how many blocks, or one block's content per line."""

    item_count = forms.IntegerField(label=_("Number of blocks"), required=False,
                                    widget=forms.NumberInput(attrs={"min": 1, "max": 200}))
    items_text = forms.CharField(label=_("Or one block per line"), required=False,
                                 widget=forms.Textarea(attrs={"rows": 6}))

    def item_arguments(self) -> dict[str, Any]:
        """Return ``items`` when lines were written (blank lines skipped), else ``item_count``."""
        lines = [line for line in self.cleaned_data.get("items_text", "").splitlines() if line.strip()]
        if lines:
            return {"items": lines}
        return {"item_count": self.cleaned_data.get("item_count")}

    def add_service_error(self, code: str, message: str) -> None:
        if code in ITEM_ERRORS:
            self.add_error("items_text" if self.cleaned_data.get("items_text", "").strip() else "item_count", message)
            return
        super().add_service_error(code, message)

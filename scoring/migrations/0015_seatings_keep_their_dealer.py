"""Seatings stored before the deal followed its person (docs/contract.md "People and seats")
left the deal at its seat: each one without a ``dealer`` is given the seat its stored result
says dealt next, so every game replays as it was played."""

from django.db import migrations


def pin_dealers(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    rows = Hand.objects.filter(entry__outcome="seating").exclude(entry__has_key="dealer").exclude(result=None)
    for hand in rows.only("id", "entry", "result").iterator(chunk_size=500):
        dealer = hand.result.get("dealer") if isinstance(hand.result, dict) else None
        if isinstance(dealer, int):
            hand.entry = {**hand.entry, "dealer": dealer}
            hand.save(update_fields=["entry"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0014_round_length_and_settled_people")]

    operations = [migrations.RunPython(pin_dealers, migrations.RunPython.noop)]

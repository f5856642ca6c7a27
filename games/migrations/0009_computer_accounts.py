"""The computer players' accounts: one per level, with no usable password (nobody logs in as
a bot)."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

LEVELS = {"random": "computer-random", "greedy": "computer-greedy", "search": "computer-search"}


def create(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Computer = apps.get_model("games", "Computer")
    for level, username in LEVELS.items():
        user, _ = User.objects.get_or_create(
            username=username, defaults={"password": make_password(None)}
        )
        Computer.objects.get_or_create(level=level, defaults={"user": user})


def remove(apps, schema_editor):
    apps.get_model("games", "Computer").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_computer_players"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]
    operations = [migrations.RunPython(create, remove)]

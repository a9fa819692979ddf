from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0008_hand_entry_key")]

    operations = []

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0009_club_night")]

    operations = []

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scorepad", "0010_daily_deal")]

    operations = []

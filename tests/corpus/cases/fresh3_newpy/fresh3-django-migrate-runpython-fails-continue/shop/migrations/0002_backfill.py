from django.db import migrations

def backfill(apps, schema_editor):
    Product = apps.get_model("shop", "Product")
    for p in Product.objects.all():
        p.price_cents = int(p.legacy_price * 100)
        p.save()
    raise ValueError("legacy price column missing; run the export first")

class Migration(migrations.Migration):
    dependencies = [("shop", "0001_initial")]
    operations = [migrations.RunPython(backfill)]

from django.test import TestCase
from shop.models import Product

class ReserveTests(TestCase):
    def test_reserve_ok(self):
        p = Product.objects.create(name="mug", price_cents=900, stock=3)
        self.assertTrue(p.reserve(2))
        self.assertEqual(Product.objects.get(pk=p.pk).stock, 1)

    def test_reserve_error_when_out_of_stock(self):
        p = Product.objects.create(name="lamp", price_cents=2500, stock=0)
        self.assertFalse(p.reserve(1))

    def test_price_display(self):
        p = Product.objects.create(name='pen', price_cents=150, stock=1)
        self.assertEqual(f'{p.price_cents / 100:.2f} EUR', '1.50 USD')

import logging
from django.db import models

log = logging.getLogger("shop")

class Product(models.Model):
    name = models.CharField(max_length=100)
    price_cents = models.IntegerField()
    stock = models.IntegerField(default=0)

    def reserve(self, qty):
        if qty > self.stock:
            log.error("reservation failed: %s has %d in stock, %d requested", self.name, self.stock, qty)
            return False
        self.stock -= qty
        self.save()
        return True

from shop import domain

select id,Total from orders where total>100 ORDER by id

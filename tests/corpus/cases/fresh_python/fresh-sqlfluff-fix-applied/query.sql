SELECT id,name FROM users  WHERE active=1
  ORDER BY name

select id, name from users where active = 1 and created_at > '2024-01-01' order by name;

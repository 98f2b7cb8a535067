local svc(name, port) = { name: name, port: port, replicas: 2 };
{ api: svc('api', 8080) { replicas: 3 }, web: svc('web', 80) }

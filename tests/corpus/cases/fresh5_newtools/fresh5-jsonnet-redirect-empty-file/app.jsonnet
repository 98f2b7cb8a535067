{ replicas: std.parseInt('three') }

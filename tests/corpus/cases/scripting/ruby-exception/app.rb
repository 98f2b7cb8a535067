cfg = {}
puts cfg[:db].fetch(:host)

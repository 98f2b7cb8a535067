proc load {} { error "config missing" }
load

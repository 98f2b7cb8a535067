from lib import on_load
on_load

project = "demo"
extensions = ["sphinx.ext.autosectionlabel"]

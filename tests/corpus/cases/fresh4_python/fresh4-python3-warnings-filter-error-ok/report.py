import warnings
def old_api(): warnings.warn("old_api() is deprecated and will raise an error in 3.0; use new_api()", DeprecationWarning, stacklevel=2)
warnings.warn("Downcasting behavior in replace is deprecated and will be removed in a future version", FutureWarning)
old_api()
open("report.txt", "w").write("rows=42 status=complete\n")

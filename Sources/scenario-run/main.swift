print("scenario-run")

print("album")

// ObjectManager

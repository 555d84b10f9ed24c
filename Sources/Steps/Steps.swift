// Steps

import Depot

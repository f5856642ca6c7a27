from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("mine/", views.my_games, name="mine"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/act/", views.act, name="act"),
    path("<int:pk>/accept/", views.accept, name="accept"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/resign/", views.resign, name="resign"),
    path("<int:pk>/abort/", views.abort, name="abort"),
    path("<int:pk>/rematch/", views.rematch, name="rematch"),
]
